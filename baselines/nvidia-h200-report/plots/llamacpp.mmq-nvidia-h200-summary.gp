# Written by gridfuzz report. Draw it from any folder: gnuplot PATH/TO/THIS.gp
# Data and pictures are beside this script: its folder comes from ARG0 (its path as given
# to gnuplot); piped into gnuplot (no ARG0) it uses gf_here if set, else the folder where
# it was written.
gf_cut = 0
if (exists("gf_here")) {
  here = gf_here
} else {
  if (exists("ARG0") && strlen(ARG0) > 0) {
    do for [gf_i = 1:strlen(ARG0)] { if (ARG0[gf_i:gf_i] eq "/") { gf_cut = gf_i } }
    here = ARG0[1:gf_cut]
  } else {
    here = '/work/main/baselines/nvidia-h200-report/plots/'
  }
}

# PNG
reset
set terminal pngcairo size 1400,406 noenhanced font ',10'
set output here.'llamacpp.mmq-nvidia-h200-summary.png'
set multiplot title 'llamacpp.mmq on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.807882
set bmargin at screen 0.679803
set label 1 'tokens   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 top_k=8)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.830049 left font ',11'
set xrange [-0.8:12]
set yrange [0.4:1.6]
set xtics ("2" 0, "512" 1.8, "897" 3.6, "58111" 5.4, "58112" 6.4, "58113" 7.4, "58114" 8.4, "58115" 9.4, "131071" 11.2) rotate by 90 right font ',9'
set ytics ('upstream: fails from 58113' 1) font ',10'
set arrow 1 from 6.9,0.55 to 6.9,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'llamacpp.mmq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'llamacpp.mmq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.458128
set bmargin at screen 0.330049
set label 1 'rows   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk tokens=512 top_k=8)' at screen 0.242857, screen 0.480296 left font ',11'
set xrange [-0.8:4.4]
set yrange [0.4:1.6]
set xtics ("1" 0, "2048" 1.8, "4162" 3.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4162' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.20197
set bmargin at screen 0.00985222
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

# SVG (the same commands)
reset
set terminal svg size 1400,406 noenhanced font 'sans,10' background rgb 'white'
set output here.'llamacpp.mmq-nvidia-h200-summary.svg'
set multiplot title 'llamacpp.mmq on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.807882
set bmargin at screen 0.679803
set label 1 'tokens   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 top_k=8)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.830049 left font ',11'
set xrange [-0.8:12]
set yrange [0.4:1.6]
set xtics ("2" 0, "512" 1.8, "897" 3.6, "58111" 5.4, "58112" 6.4, "58113" 7.4, "58114" 8.4, "58115" 9.4, "131071" 11.2) rotate by 90 right font ',9'
set ytics ('upstream: fails from 58113' 1) font ',10'
set arrow 1 from 6.9,0.55 to 6.9,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'llamacpp.mmq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'llamacpp.mmq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.458128
set bmargin at screen 0.330049
set label 1 'rows   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk tokens=512 top_k=8)' at screen 0.242857, screen 0.480296 left font ',11'
set xrange [-0.8:4.4]
set yrange [0.4:1.6]
set xtics ("1" 0, "2048" 1.8, "4162" 3.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4162' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.20197
set bmargin at screen 0.00985222
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

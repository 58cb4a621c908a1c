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
set terminal pngcairo size 1400,626 noenhanced font ',10'
set output here.'llamacpp.mmvq-nvidia-h200-summary.png'
set multiplot title 'llamacpp.mmvq on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.875399
set bmargin at screen 0.792332
set label 1 'tokens   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 top_k=8)' at screen 0.242857, screen 0.889776 left font ',11'
set xrange [-0.8:5.8]
set yrange [0.4:1.6]
set xtics ("4" 0, "7" 1, "8" 2, "9" 3, "10" 4, "11" 5) rotate by 90 right font ',9'
set ytics ('upstream: fails from 9' 1) font ',10'
set arrow 1 from 2.5,0.55 to 2.5,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'llamacpp.mmvq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'llamacpp.mmvq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.699681
set bmargin at screen 0.616613
set label 1 'experts   (other axes: cols=7168 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=4 top_k=8)' at screen 0.242857, screen 0.714058 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:1.6]
set xtics ("256" 0, "521" 1.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 521' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.511182
set bmargin at screen 0.428115
set label 1 'rows   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk tokens=4 top_k=8)' at screen 0.242857, screen 0.525559 left font ',11'
set xrange [-0.8:5.4]
set yrange [0.4:1.6]
set xtics ("1" 0, "1023" 1.8, "2048" 3.6, "2080" 4.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 2080' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.309904
set bmargin at screen 0.226837
set label 1 'cols   (other axes: experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=4 top_k=8)' at screen 0.242857, screen 0.324281 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:1.6]
set xtics ("7168" 0, "65536" 1.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 65536' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.13099
set bmargin at screen 0.00638978
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
set terminal svg size 1400,626 noenhanced font 'sans,10' background rgb 'white'
set output here.'llamacpp.mmvq-nvidia-h200-summary.svg'
set multiplot title 'llamacpp.mmvq on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.875399
set bmargin at screen 0.792332
set label 1 'tokens   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 top_k=8)' at screen 0.242857, screen 0.889776 left font ',11'
set xrange [-0.8:5.8]
set yrange [0.4:1.6]
set xtics ("4" 0, "7" 1, "8" 2, "9" 3, "10" 4, "11" 5) rotate by 90 right font ',9'
set ytics ('upstream: fails from 9' 1) font ',10'
set arrow 1 from 2.5,0.55 to 2.5,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'llamacpp.mmvq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'llamacpp.mmvq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.699681
set bmargin at screen 0.616613
set label 1 'experts   (other axes: cols=7168 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=4 top_k=8)' at screen 0.242857, screen 0.714058 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:1.6]
set xtics ("256" 0, "521" 1.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 521' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.511182
set bmargin at screen 0.428115
set label 1 'rows   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk tokens=4 top_k=8)' at screen 0.242857, screen 0.525559 left font ',11'
set xrange [-0.8:5.4]
set yrange [0.4:1.6]
set xtics ("1" 0, "1023" 1.8, "2048" 3.6, "2080" 4.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 2080' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.309904
set bmargin at screen 0.226837
set label 1 'cols   (other axes: experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=4 top_k=8)' at screen 0.242857, screen 0.324281 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:1.6]
set xtics ("7168" 0, "65536" 1.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 65536' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.13099
set bmargin at screen 0.00638978
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

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
    here = '/work/main/baselines/nvidia-h100-80gb-hbm3-report/plots/'
  }
}

# PNG
reset
set terminal pngcairo size 1400,860 noenhanced font ',10'
set output here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.png'
set multiplot title 'llamacpp.mmvq on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.909302
set bmargin at screen 0.816279
set label 1 'tokens   (other axes: cols=2048 experts=128 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=1536 top_k=8)   + 21 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.919767 left font ',11'
set xrange [-0.8:8.8]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "7" 4, "8" 5, "9" 6, "10" 7, "11" 8) rotate by 90 right font ',9'
set ytics ('upstream: fails from 9' 2, 'exact: fails from 9' 1) font ',10'
set arrow 1 from 5.5,1.55 to 5.5,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 5.5,0.55 to 5.5,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.748837
set bmargin at screen 0.655814
set label 1 'top_k   (other axes: cols=32 experts=8 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=4)   + 7 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.759302 left font ',11'
set xrange [-0.8:3.8]
set yrange [0.4:2.6]
set xtics ("3" 0, "4" 1, "7" 2, "8" 3) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 8' 2, 'exact: no failure up to 8' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.597674
set bmargin at screen 0.504651
set label 1 'experts   (other axes: cols=7168 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=4 top_k=8)   + 15 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.60814 left font ',11'
set xrange [-0.8:12]
set yrange [0.4:2.6]
set xtics ("9" 0, "10" 1, "15" 2.8, "16" 3.8, "31" 5.6, "32" 6.6, "63" 8.4, "64" 9.4, "256" 11.2) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 256' 2, 'exact: no failure up to 256' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.427907
set bmargin at screen 0.334884
set label 1 'rows   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk tokens=4 top_k=8)   + 13 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.438372 left font ',11'
set xrange [-0.8:32]
set yrange [0.4:2.6]
set xtics ("1" 0, "4" 1, "5" 2, "7" 3, "8" 4, "9" 5, "10" 6, "16" 7.8, "17" 8.8, "31" 10.6, "32" 11.6, "62" 13.4, "63" 14.4, "64" 15.4, "126" 17.2, "127" 18.2, "128" 19.2, "255" 21, "256" 22, "510" 23.8, "511" 24.8, "1023" 26.6, "1024" 27.6, "2048" 29.4, "4096" 31.2) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4096' 2, 'exact: no failure up to 4096' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.248837
set bmargin at screen 0.155814
set label 1 'cols   (other axes: experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=4 top_k=8)   + 13 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.259302 left font ',11'
set xrange [-0.8:11.6]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "96" 3.6, "128" 5.4, "224" 7.2, "256" 9, "7168" 10.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 7168' 2, 'exact: no failure up to 7168' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0953488
set bmargin at screen 0.00465116
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
set terminal svg size 1400,860 noenhanced font 'sans,10' background rgb 'white'
set output here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.svg'
set multiplot title 'llamacpp.mmvq on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.909302
set bmargin at screen 0.816279
set label 1 'tokens   (other axes: cols=2048 experts=128 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=1536 top_k=8)   + 21 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.919767 left font ',11'
set xrange [-0.8:8.8]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "7" 4, "8" 5, "9" 6, "10" 7, "11" 8) rotate by 90 right font ',9'
set ytics ('upstream: fails from 9' 2, 'exact: fails from 9' 1) font ',10'
set arrow 1 from 5.5,1.55 to 5.5,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 5.5,0.55 to 5.5,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.748837
set bmargin at screen 0.655814
set label 1 'top_k   (other axes: cols=32 experts=8 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=4)   + 7 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.759302 left font ',11'
set xrange [-0.8:3.8]
set yrange [0.4:2.6]
set xtics ("3" 0, "4" 1, "7" 2, "8" 3) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 8' 2, 'exact: no failure up to 8' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.597674
set bmargin at screen 0.504651
set label 1 'experts   (other axes: cols=7168 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=4 top_k=8)   + 15 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.60814 left font ',11'
set xrange [-0.8:12]
set yrange [0.4:2.6]
set xtics ("9" 0, "10" 1, "15" 2.8, "16" 3.8, "31" 5.6, "32" 6.6, "63" 8.4, "64" 9.4, "256" 11.2) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 256' 2, 'exact: no failure up to 256' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.427907
set bmargin at screen 0.334884
set label 1 'rows   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk tokens=4 top_k=8)   + 13 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.438372 left font ',11'
set xrange [-0.8:32]
set yrange [0.4:2.6]
set xtics ("1" 0, "4" 1, "5" 2, "7" 3, "8" 4, "9" 5, "10" 6, "16" 7.8, "17" 8.8, "31" 10.6, "32" 11.6, "62" 13.4, "63" 14.4, "64" 15.4, "126" 17.2, "127" 18.2, "128" 19.2, "255" 21, "256" 22, "510" 23.8, "511" 24.8, "1023" 26.6, "1024" 27.6, "2048" 29.4, "4096" 31.2) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4096' 2, 'exact: no failure up to 4096' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.248837
set bmargin at screen 0.155814
set label 1 'cols   (other axes: experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=4 top_k=8)   + 13 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.259302 left font ',11'
set xrange [-0.8:11.6]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "96" 3.6, "128" 5.4, "224" 7.2, "256" 9, "7168" 10.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 7168' 2, 'exact: no failure up to 7168' 1) font ',10'
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0953488
set bmargin at screen 0.00465116
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

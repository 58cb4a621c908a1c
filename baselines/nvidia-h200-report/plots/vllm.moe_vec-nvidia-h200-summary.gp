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
set terminal pngcairo size 1400,670 noenhanced font ',10'
set output here.'vllm.moe_vec-nvidia-h200-summary.png'
set multiplot title 'vllm.moe_vec on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.883582
set bmargin at screen 0.764179
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)' at screen 0.242857, screen 0.897015 left font ',11'
set xrange [-0.8:12]
set yrange [0.4:2.6]
set xtics ("64" 0, "1490" 1.8, "8190" 3.6, "8191" 4.6, "8192" 5.6, "8193" 6.6, "8194" 7.6, "95326" 9.4, "381303" 11.2) rotate by 90 right font ',9'
set ytics ('upstream: fails from 8192' 2, 'chunked: no failure up to 8194' 1) font ',10'
set arrow 1 from 5.1,1.55 to 5.1,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_vec-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_vec-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.629851
set bmargin at screen 0.510448
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=64 top_k=8)' at screen 0.242857, screen 0.643284 left font ',11'
set xrange [-0.8:8]
set yrange [0.4:2.6]
set xtics ("1" 0, "1024" 1.8, "1408" 3.6, "10594" 5.4, "192154" 7.2) rotate by 90 right font ',9'
set ytics ('upstream: fails from 192154' 2, 'chunked: fails from 192154' 1) font ',10'
set arrow 1 from 6.3,1.55 to 6.3,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 6.3,0.55 to 6.3,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_vec-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_vec-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.376119
set bmargin at screen 0.256716
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)' at screen 0.242857, screen 0.389552 left font ',11'
set xrange [-0.8:6.6]
set yrange [0.4:2.6]
set xtics ("2816" 0, "384256" 1.8, "384288" 2.8, "384320" 3.8, "384352" 4.8, "384384" 5.8) rotate by 90 right font ',9'
set ytics ('upstream: fails from 384320' 2, 'chunked: fails from 384320' 1) font ',10'
set arrow 1 from 3.3,1.55 to 3.3,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 3.3,0.55 to 3.3,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_vec-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_vec-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.155224
set bmargin at screen 0.00597015
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

# SVG (the same commands)
reset
set terminal svg size 1400,670 noenhanced font 'sans,10' background rgb 'white'
set output here.'vllm.moe_vec-nvidia-h200-summary.svg'
set multiplot title 'vllm.moe_vec on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.883582
set bmargin at screen 0.764179
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)' at screen 0.242857, screen 0.897015 left font ',11'
set xrange [-0.8:12]
set yrange [0.4:2.6]
set xtics ("64" 0, "1490" 1.8, "8190" 3.6, "8191" 4.6, "8192" 5.6, "8193" 6.6, "8194" 7.6, "95326" 9.4, "381303" 11.2) rotate by 90 right font ',9'
set ytics ('upstream: fails from 8192' 2, 'chunked: no failure up to 8194' 1) font ',10'
set arrow 1 from 5.1,1.55 to 5.1,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_vec-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_vec-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.629851
set bmargin at screen 0.510448
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=64 top_k=8)' at screen 0.242857, screen 0.643284 left font ',11'
set xrange [-0.8:8]
set yrange [0.4:2.6]
set xtics ("1" 0, "1024" 1.8, "1408" 3.6, "10594" 5.4, "192154" 7.2) rotate by 90 right font ',9'
set ytics ('upstream: fails from 192154' 2, 'chunked: fails from 192154' 1) font ',10'
set arrow 1 from 6.3,1.55 to 6.3,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 6.3,0.55 to 6.3,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_vec-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_vec-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.376119
set bmargin at screen 0.256716
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)' at screen 0.242857, screen 0.389552 left font ',11'
set xrange [-0.8:6.6]
set yrange [0.4:2.6]
set xtics ("2816" 0, "384256" 1.8, "384288" 2.8, "384320" 3.8, "384352" 4.8, "384384" 5.8) rotate by 90 right font ',9'
set ytics ('upstream: fails from 384320' 2, 'chunked: fails from 384320' 1) font ',10'
set arrow 1 from 3.3,1.55 to 3.3,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 3.3,0.55 to 3.3,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_vec-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_vec-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.155224
set bmargin at screen 0.00597015
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

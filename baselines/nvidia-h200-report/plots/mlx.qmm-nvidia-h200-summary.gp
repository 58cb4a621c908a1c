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
set terminal pngcairo size 1400,522 noenhanced font ',10'
set output here.'mlx.qmm-nvidia-h200-summary.png'
set multiplot title 'mlx.qmm on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.850575
set bmargin at screen 0.697318
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 vocab=32000)' at screen 0.242857, screen 0.867816 left font ',11'
set xrange [-0.8:18.4]
set yrange [0.4:2.6]
set xtics ("8" 0, "16" 1.8, "4095" 3.6, "33553" 5.4, "67107" 7.2, "67108" 8.2, "67109" 9.2, "67110" 10.2, "67111" 11.2, "201325" 13, "262144" 14.8, "268471" 15.8, "402728" 17.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 67109' 2, 'chunked: no failure up to 67111' 1) font ',10'
set arrow 1 from 8.7,1.55 to 8.7,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'mlx.qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: vocab
unset arrow
unset label
set tmargin at screen 0.524904
set bmargin at screen 0.371648
set label 1 'vocab   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 tokens=16)' at screen 0.242857, screen 0.542146 left font ',11'
set xrange [-0.8:8.4]
set yrange [0.4:2.6]
set xtics ("128" 0, "32000" 1.8, "524160" 3.6, "524288" 4.6, "524416" 5.6, "524544" 6.6, "524672" 7.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 524416' 2, 'chunked: fails from 524416' 1) font ',10'
set arrow 1 from 5.1,1.55 to 5.1,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 5.1,0.55 to 5.1,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.qmm-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 2 ps 1.6 lw 2 lc rgb '#d62728'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.241379
set bmargin at screen 0.00766284
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt 2 ps 1.6 lw 2 lc rgb '#d62728' title 'FAIL (unexpected)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

# SVG (the same commands)
reset
set terminal svg size 1400,522 noenhanced font 'sans,10' background rgb 'white'
set output here.'mlx.qmm-nvidia-h200-summary.svg'
set multiplot title 'mlx.qmm on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.850575
set bmargin at screen 0.697318
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 vocab=32000)' at screen 0.242857, screen 0.867816 left font ',11'
set xrange [-0.8:18.4]
set yrange [0.4:2.6]
set xtics ("8" 0, "16" 1.8, "4095" 3.6, "33553" 5.4, "67107" 7.2, "67108" 8.2, "67109" 9.2, "67110" 10.2, "67111" 11.2, "201325" 13, "262144" 14.8, "268471" 15.8, "402728" 17.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 67109' 2, 'chunked: no failure up to 67111' 1) font ',10'
set arrow 1 from 8.7,1.55 to 8.7,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'mlx.qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: vocab
unset arrow
unset label
set tmargin at screen 0.524904
set bmargin at screen 0.371648
set label 1 'vocab   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 tokens=16)' at screen 0.242857, screen 0.542146 left font ',11'
set xrange [-0.8:8.4]
set yrange [0.4:2.6]
set xtics ("128" 0, "32000" 1.8, "524160" 3.6, "524288" 4.6, "524416" 5.6, "524544" 6.6, "524672" 7.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 524416' 2, 'chunked: fails from 524416' 1) font ',10'
set arrow 1 from 5.1,1.55 to 5.1,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 5.1,0.55 to 5.1,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.qmm-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 2 ps 1.6 lw 2 lc rgb '#d62728'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.241379
set bmargin at screen 0.00766284
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt 2 ps 1.6 lw 2 lc rgb '#d62728' title 'FAIL (unexpected)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

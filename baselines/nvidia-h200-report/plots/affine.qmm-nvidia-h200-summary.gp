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
set terminal pngcairo size 1400,564 noenhanced font ',10'
set output here.'affine.qmm-nvidia-h200-summary.png'
set multiplot title 'affine.qmm on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.861702
set bmargin at screen 0.670213
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 vocab=32000)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.87766 left font ',11'
set xrange [-0.8:23.4]
set yrange [0.4:3.6]
set xtics ("2" 0, "16" 1.8, "4096" 3.6, "65536" 5.4, "67107" 6.4, "67108" 7.4, "67109" 8.4, "67110" 9.4, "67111" 10.4, "134216" 12.2, "134217" 13.2, "134218" 14.2, "134219" 15.2, "134220" 16.2, "134225" 17.2, "201329" 19, "268472" 20.8, "402656" 22.6) rotate by 90 right font ',9'
set ytics ('legacy: fails from 67109' 3, 'fixed: no failure up to 134225' 2, 'hopper: no failure up to 268472' 1) font ',10'
set arrow 1 from 7.9,2.55 to 7.9,3.45 nohead lw 2.5 lc rgb 'black' front
plot here.'affine.qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'affine.qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'affine.qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: vocab
unset arrow
unset label
set tmargin at screen 0.510638
set bmargin at screen 0.319149
set label 1 'vocab   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 tokens=16)' at screen 0.242857, screen 0.526596 left font ',11'
set xrange [-0.8:4.4]
set yrange [0.4:3.6]
set xtics ("128" 0, "32000" 1.8, "1048448" 3.6) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 1048448' 3, 'fixed: no failure up to 1048448' 2, 'hopper: no failure up to 1048448' 1) font ',10'
plot here.'affine.qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.184397
set bmargin at screen 0.0070922
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
set terminal svg size 1400,564 noenhanced font 'sans,10' background rgb 'white'
set output here.'affine.qmm-nvidia-h200-summary.svg'
set multiplot title 'affine.qmm on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.861702
set bmargin at screen 0.670213
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 vocab=32000)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.87766 left font ',11'
set xrange [-0.8:23.4]
set yrange [0.4:3.6]
set xtics ("2" 0, "16" 1.8, "4096" 3.6, "65536" 5.4, "67107" 6.4, "67108" 7.4, "67109" 8.4, "67110" 9.4, "67111" 10.4, "134216" 12.2, "134217" 13.2, "134218" 14.2, "134219" 15.2, "134220" 16.2, "134225" 17.2, "201329" 19, "268472" 20.8, "402656" 22.6) rotate by 90 right font ',9'
set ytics ('legacy: fails from 67109' 3, 'fixed: no failure up to 134225' 2, 'hopper: no failure up to 268472' 1) font ',10'
set arrow 1 from 7.9,2.55 to 7.9,3.45 nohead lw 2.5 lc rgb 'black' front
plot here.'affine.qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'affine.qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'affine.qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: vocab
unset arrow
unset label
set tmargin at screen 0.510638
set bmargin at screen 0.319149
set label 1 'vocab   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 tokens=16)' at screen 0.242857, screen 0.526596 left font ',11'
set xrange [-0.8:4.4]
set yrange [0.4:3.6]
set xtics ("128" 0, "32000" 1.8, "1048448" 3.6) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 1048448' 3, 'fixed: no failure up to 1048448' 2, 'hopper: no failure up to 1048448' 1) font ',10'
plot here.'affine.qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.184397
set bmargin at screen 0.0070922
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

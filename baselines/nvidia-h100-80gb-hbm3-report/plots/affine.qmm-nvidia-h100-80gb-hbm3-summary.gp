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
set terminal pngcairo size 1400,746 noenhanced font ',10'
set output here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.png'
set multiplot title 'affine.qmm on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.895442
set bmargin at screen 0.75067
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 vocab=32000)   + 33 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.907507 left font ',11'
set xrange [-0.8:34.8]
set yrange [0.4:3.6]
set xtics ("1" 0, "2" 1, "3" 2, "7" 3, "8" 4, "15" 5.8, "16" 6.8, "64" 8.6, "65" 9.6, "128" 11.4, "129" 12.4, "255" 14.2, "256" 15.2, "524" 17, "525" 18, "4095" 19.8, "4096" 20.8, "67108" 22.6, "67109" 23.6, "134217" 25.4, "134218" 26.4, "134226" 27.4, "134227" 28.4, "201326" 30.2, "201327" 31.2, "268435" 33, "268436" 34) rotate by 90 right font ',9'
set ytics ('legacy: fails from 67109' 3, 'hopper: no failure up to 268436' 2, 'fixed: no failure up to 268436' 1) font ',10'
set arrow 1 from 23.1,2.55 to 23.1,3.45 nohead lw 2.5 lc rgb 'black' front
plot here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: vocab
unset arrow
unset label
set tmargin at screen 0.630027
set bmargin at screen 0.485255
set label 1 'vocab   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 tokens=16)   + 15 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.642091 left font ',11'
set xrange [-0.8:32]
set yrange [0.4:3.6]
set xtics ("128" 0, "256" 1.8, "384" 3.6, "512" 5.4, "896" 7.2, "1024" 9, "1920" 10.8, "2048" 12.6, "3968" 14.4, "4096" 15.4, "8064" 17.2, "8192" 18.2, "32000" 20, "32640" 21, "32768" 22, "65408" 23.8, "65536" 24.8, "128256" 26.6, "151936" 28.4, "262016" 30.2, "262144" 31.2) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 262144' 3, 'hopper: no failure up to 262144' 2, 'fixed: no failure up to 262144' 1) font ',10'
plot here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.364611
set bmargin at screen 0.219839
set label 1 'cols   (other axes: bits=4 dtype=bf16 group_size=64 tokens=16 vocab=32000)   + 52 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.376676 left font ',11'
set xrange [-0.8:43.4]
set yrange [0.4:3.6]
set xtics ("64" 0, "128" 1.8, "192" 3.6, "256" 5.4, "320" 7.2, "512" 9, "576" 10.8, "704" 12.6, "768" 14.4, "832" 16.2, "1216" 18, "1280" 19.8, "1344" 20.8, "1984" 22.6, "2048" 23.6, "4032" 25.4, "4096" 26.4, "4160" 27.4, "4224" 28.4, "6848" 30.2, "6912" 31.2, "6976" 32.2, "13760" 34, "13824" 35, "15104" 36.8, "15168" 37.8, "32704" 39.6, "32768" 40.6, "33536" 41.6, "33600" 42.6) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 33600' 3, 'hopper: no failure up to 33600' 2, 'fixed: no failure up to 33600' 1) font ',10'
plot here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.13941
set bmargin at screen 0.00536193
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
set terminal svg size 1400,746 noenhanced font 'sans,10' background rgb 'white'
set output here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.svg'
set multiplot title 'affine.qmm on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.895442
set bmargin at screen 0.75067
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 vocab=32000)   + 33 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.907507 left font ',11'
set xrange [-0.8:34.8]
set yrange [0.4:3.6]
set xtics ("1" 0, "2" 1, "3" 2, "7" 3, "8" 4, "15" 5.8, "16" 6.8, "64" 8.6, "65" 9.6, "128" 11.4, "129" 12.4, "255" 14.2, "256" 15.2, "524" 17, "525" 18, "4095" 19.8, "4096" 20.8, "67108" 22.6, "67109" 23.6, "134217" 25.4, "134218" 26.4, "134226" 27.4, "134227" 28.4, "201326" 30.2, "201327" 31.2, "268435" 33, "268436" 34) rotate by 90 right font ',9'
set ytics ('legacy: fails from 67109' 3, 'hopper: no failure up to 268436' 2, 'fixed: no failure up to 268436' 1) font ',10'
set arrow 1 from 23.1,2.55 to 23.1,3.45 nohead lw 2.5 lc rgb 'black' front
plot here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: vocab
unset arrow
unset label
set tmargin at screen 0.630027
set bmargin at screen 0.485255
set label 1 'vocab   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 tokens=16)   + 15 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.642091 left font ',11'
set xrange [-0.8:32]
set yrange [0.4:3.6]
set xtics ("128" 0, "256" 1.8, "384" 3.6, "512" 5.4, "896" 7.2, "1024" 9, "1920" 10.8, "2048" 12.6, "3968" 14.4, "4096" 15.4, "8064" 17.2, "8192" 18.2, "32000" 20, "32640" 21, "32768" 22, "65408" 23.8, "65536" 24.8, "128256" 26.6, "151936" 28.4, "262016" 30.2, "262144" 31.2) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 262144' 3, 'hopper: no failure up to 262144' 2, 'fixed: no failure up to 262144' 1) font ',10'
plot here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.364611
set bmargin at screen 0.219839
set label 1 'cols   (other axes: bits=4 dtype=bf16 group_size=64 tokens=16 vocab=32000)   + 52 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.376676 left font ',11'
set xrange [-0.8:43.4]
set yrange [0.4:3.6]
set xtics ("64" 0, "128" 1.8, "192" 3.6, "256" 5.4, "320" 7.2, "512" 9, "576" 10.8, "704" 12.6, "768" 14.4, "832" 16.2, "1216" 18, "1280" 19.8, "1344" 20.8, "1984" 22.6, "2048" 23.6, "4032" 25.4, "4096" 26.4, "4160" 27.4, "4224" 28.4, "6848" 30.2, "6912" 31.2, "6976" 32.2, "13760" 34, "13824" 35, "15104" 36.8, "15168" 37.8, "32704" 39.6, "32768" 40.6, "33536" 41.6, "33600" 42.6) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 33600' 3, 'hopper: no failure up to 33600' 2, 'fixed: no failure up to 33600' 1) font ',10'
plot here.'affine.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.13941
set bmargin at screen 0.00536193
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

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
set terminal pngcairo size 1400,738 noenhanced font ',10'
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
set tmargin at screen 0.894309
set bmargin at screen 0.747967
set label 1 'tokens   (other axes: bits=4 cols=2880 dtype=bf16 group_size=64 vocab=201088)   + 23 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.906504 left font ',11'
set xrange [-0.8:26.4]
set yrange [0.4:3.6]
set xtics ("1" 0, "2" 1, "3" 2, "7" 3, "8" 4, "11" 5, "12" 6, "16" 7, "22" 8.8, "23" 9.8, "64" 11.6, "65" 12.6, "83" 14.4, "84" 15.4, "255" 17.2, "256" 18.2, "10680" 20, "21358" 21.8, "21359" 22.8, "65535" 24.6, "65536" 25.6) rotate by 90 right font ',9'
set ytics ('legacy: fails from 10680' 3, 'fixed: no failure up to 256' 2, 'hopper: no failure up to 256' 1) font ',10'
set arrow 1 from 19.1,2.55 to 19.1,3.45 nohead lw 2.5 lc rgb 'black' front
plot here.'affine.qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'affine.qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'affine.qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: vocab
unset arrow
unset label
set tmargin at screen 0.636856
set bmargin at screen 0.490515
set label 1 'vocab   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 tokens=16)   + 28 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.649051 left font ',11'
set xrange [-0.8:28.2]
set yrange [0.4:3.6]
set xtics ("256" 0, "384" 1.8, "512" 3.6, "896" 5.4, "1024" 7.2, "1920" 9, "2048" 10.8, "3968" 12.6, "4096" 13.6, "10880" 15.4, "11008" 16.4, "32640" 18.2, "32768" 19.2, "65408" 21, "65536" 22, "128256" 23.8, "151936" 25.6, "262016" 27.4) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 262016' 3, 'fixed: no failure up to 262016' 2, 'hopper: no failure up to 262016' 1) font ',10'
plot here.'affine.qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.368564
set bmargin at screen 0.222222
set label 1 'cols   (other axes: bits=4 dtype=bf16 group_size=64 tokens=16 vocab=32000)   + 36 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.380759 left font ',11'
set xrange [-0.8:19.4]
set yrange [0.4:3.6]
set xtics ("64" 0, "128" 1.8, "192" 3.6, "512" 5.4, "576" 7.2, "1984" 9, "2048" 10, "4032" 11.8, "4160" 12.8, "4224" 13.8, "32704" 15.6, "32768" 16.6, "33536" 17.6, "33600" 18.6) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 33600' 3, 'fixed: no failure up to 33600' 2, 'hopper: no failure up to 33600' 1) font ',10'
plot here.'affine.qmm-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.140921
set bmargin at screen 0.00542005
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
set terminal svg size 1400,738 noenhanced font 'sans,10' background rgb 'white'
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
set tmargin at screen 0.894309
set bmargin at screen 0.747967
set label 1 'tokens   (other axes: bits=4 cols=2880 dtype=bf16 group_size=64 vocab=201088)   + 23 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.906504 left font ',11'
set xrange [-0.8:26.4]
set yrange [0.4:3.6]
set xtics ("1" 0, "2" 1, "3" 2, "7" 3, "8" 4, "11" 5, "12" 6, "16" 7, "22" 8.8, "23" 9.8, "64" 11.6, "65" 12.6, "83" 14.4, "84" 15.4, "255" 17.2, "256" 18.2, "10680" 20, "21358" 21.8, "21359" 22.8, "65535" 24.6, "65536" 25.6) rotate by 90 right font ',9'
set ytics ('legacy: fails from 10680' 3, 'fixed: no failure up to 256' 2, 'hopper: no failure up to 256' 1) font ',10'
set arrow 1 from 19.1,2.55 to 19.1,3.45 nohead lw 2.5 lc rgb 'black' front
plot here.'affine.qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'affine.qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'affine.qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: vocab
unset arrow
unset label
set tmargin at screen 0.636856
set bmargin at screen 0.490515
set label 1 'vocab   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 tokens=16)   + 28 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.649051 left font ',11'
set xrange [-0.8:28.2]
set yrange [0.4:3.6]
set xtics ("256" 0, "384" 1.8, "512" 3.6, "896" 5.4, "1024" 7.2, "1920" 9, "2048" 10.8, "3968" 12.6, "4096" 13.6, "10880" 15.4, "11008" 16.4, "32640" 18.2, "32768" 19.2, "65408" 21, "65536" 22, "128256" 23.8, "151936" 25.6, "262016" 27.4) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 262016' 3, 'fixed: no failure up to 262016' 2, 'hopper: no failure up to 262016' 1) font ',10'
plot here.'affine.qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.368564
set bmargin at screen 0.222222
set label 1 'cols   (other axes: bits=4 dtype=bf16 group_size=64 tokens=16 vocab=32000)   + 36 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.380759 left font ',11'
set xrange [-0.8:19.4]
set yrange [0.4:3.6]
set xtics ("64" 0, "128" 1.8, "192" 3.6, "512" 5.4, "576" 7.2, "1984" 9, "2048" 10, "4032" 11.8, "4160" 12.8, "4224" 13.8, "32704" 15.6, "32768" 16.6, "33536" 17.6, "33600" 18.6) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 33600' 3, 'fixed: no failure up to 33600' 2, 'hopper: no failure up to 33600' 1) font ',10'
plot here.'affine.qmm-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.140921
set bmargin at screen 0.00542005
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

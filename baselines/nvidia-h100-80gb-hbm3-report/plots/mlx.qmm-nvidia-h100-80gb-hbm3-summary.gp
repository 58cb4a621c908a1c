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
set terminal pngcairo size 1400,662 noenhanced font ',10'
set output here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.png'
set multiplot title 'mlx.qmm on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.882175
set bmargin at screen 0.761329
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 vocab=32000)   + 20 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.89577 left font ',11'
set xrange [-0.8:30]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "7" 3, "8" 4, "15" 5.8, "16" 6.8, "64" 8.6, "65" 9.6, "128" 11.4, "129" 12.4, "255" 14.2, "256" 15.2, "524" 17, "525" 18, "4095" 19.8, "4096" 20.8, "134226" 22.6, "134227" 23.6, "268469" 25.4, "268470" 26.4, "335544" 28.2, "335545" 29.2) rotate by 90 right font ',9'
set ytics ('upstream: fails from 134226' 2, 'chunked: no failure up to 335544' 1) font ',10'
set arrow 1 from 21.7,1.55 to 21.7,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: vocab
unset arrow
unset label
set tmargin at screen 0.625378
set bmargin at screen 0.504532
set label 1 'vocab   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 tokens=16)   + 9 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.638973 left font ',11'
set xrange [-0.8:29.2]
set yrange [0.4:2.6]
set xtics ("128" 0, "256" 1.8, "384" 3.6, "512" 5.4, "896" 7.2, "1024" 9, "1920" 10.8, "2048" 12.6, "3968" 14.4, "4096" 15.4, "32000" 17.2, "32640" 18.2, "32768" 19.2, "65408" 21, "65536" 22, "128256" 23.8, "151936" 25.6, "262016" 27.4, "262144" 28.4) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 262144' 2, 'chunked: no failure up to 262144' 1) font ',10'
plot here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.36858
set bmargin at screen 0.247734
set label 1 'cols   (other axes: bits=4 dtype=bf16 group_size=64 tokens=16 vocab=32000)   + 19 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.382175 left font ',11'
set xrange [-0.8:20.4]
set yrange [0.4:2.6]
set xtics ("128" 0, "192" 1.8, "256" 3.6, "512" 5.4, "576" 7.2, "1984" 9, "2048" 10, "4032" 11.8, "4096" 12.8, "4160" 13.8, "4224" 14.8, "32704" 16.6, "32768" 17.6, "33536" 18.6, "33600" 19.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 33600' 2, 'chunked: no failure up to 33600' 1) font ',10'
plot here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.1571
set bmargin at screen 0.0060423
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
set terminal svg size 1400,662 noenhanced font 'sans,10' background rgb 'white'
set output here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.svg'
set multiplot title 'mlx.qmm on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.882175
set bmargin at screen 0.761329
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 vocab=32000)   + 20 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.89577 left font ',11'
set xrange [-0.8:30]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "7" 3, "8" 4, "15" 5.8, "16" 6.8, "64" 8.6, "65" 9.6, "128" 11.4, "129" 12.4, "255" 14.2, "256" 15.2, "524" 17, "525" 18, "4095" 19.8, "4096" 20.8, "134226" 22.6, "134227" 23.6, "268469" 25.4, "268470" 26.4, "335544" 28.2, "335545" 29.2) rotate by 90 right font ',9'
set ytics ('upstream: fails from 134226' 2, 'chunked: no failure up to 335544' 1) font ',10'
set arrow 1 from 21.7,1.55 to 21.7,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: vocab
unset arrow
unset label
set tmargin at screen 0.625378
set bmargin at screen 0.504532
set label 1 'vocab   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 tokens=16)   + 9 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.638973 left font ',11'
set xrange [-0.8:29.2]
set yrange [0.4:2.6]
set xtics ("128" 0, "256" 1.8, "384" 3.6, "512" 5.4, "896" 7.2, "1024" 9, "1920" 10.8, "2048" 12.6, "3968" 14.4, "4096" 15.4, "32000" 17.2, "32640" 18.2, "32768" 19.2, "65408" 21, "65536" 22, "128256" 23.8, "151936" 25.6, "262016" 27.4, "262144" 28.4) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 262144' 2, 'chunked: no failure up to 262144' 1) font ',10'
plot here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.36858
set bmargin at screen 0.247734
set label 1 'cols   (other axes: bits=4 dtype=bf16 group_size=64 tokens=16 vocab=32000)   + 19 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.382175 left font ',11'
set xrange [-0.8:20.4]
set yrange [0.4:2.6]
set xtics ("128" 0, "192" 1.8, "256" 3.6, "512" 5.4, "576" 7.2, "1984" 9, "2048" 10, "4032" 11.8, "4096" 12.8, "4160" 13.8, "4224" 14.8, "32704" 16.6, "32768" 17.6, "33536" 18.6, "33600" 19.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 33600' 2, 'chunked: no failure up to 33600' 1) font ',10'
plot here.'mlx.qmm-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.1571
set bmargin at screen 0.0060423
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

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
set terminal pngcairo size 1400,486 noenhanced font ',10'
set output here.'vllm.quantize_q8_1-nvidia-h100-80gb-hbm3-summary.png'
set multiplot title 'vllm.quantize_q8_1 on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: rows
unset arrow
unset label
set tmargin at screen 0.839506
set bmargin at screen 0.674897
set label 1 'rows   (other axes: cols=2816 dtype=f32)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.858025 left font ',11'
set xrange [-0.8:55.2]
set yrange [0.4:2.6]
set xtics ("1" 0, "10" 1.8, "11" 2.8, "12" 3.8, "21" 5.6, "22" 6.6, "23" 7.6, "24" 8.6, "37" 10.4, "38" 11.4, "64" 13.2, "75" 15, "76" 16, "255" 17.8, "256" 18.8, "2730" 20.6, "2731" 21.6, "5461" 23.4, "5462" 24.4, "5957" 26.2, "5958" 27.2, "19418" 29, "19419" 30, "32767" 31.8, "32768" 32.8, "190650" 34.6, "190651" 35.6, "381300" 37.4, "381301" 38.4, "621378" 40.2, "621379" 41.2, "762600" 43, "762601" 44, "786420" 45, "786421" 46, "1242756" 47.8, "1242757" 48.8, "1525201" 50.6, "1525202" 51.6, "2485513" 53.4, "2485514" 54.4) rotate by 90 right font ',9'
set ytics ('upstream: fails from 786421' 2, 'chunked: no failure up to 2485514' 1) font ',10'
set arrow 1 from 45.5,1.55 to 45.5,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.quantize_q8_1-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.quantize_q8_1-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.473251
set bmargin at screen 0.308642
set label 1 'cols   (other axes: dtype=f32 rows=64)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.49177 left font ',11'
set xrange [-0.8:39.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "3" 1, "4" 2, "255" 3.8, "256" 4.8, "511" 6.6, "512" 7.6, "513" 8.6, "1023" 10.4, "1024" 11.4, "1536" 13.2, "1537" 14.2, "2816" 16, "3584" 17.8, "3585" 18.8, "32256" 20.6, "32257" 21.6, "32767" 22.6, "32768" 23.6, "65024" 25.4, "65025" 26.4, "65535" 27.4, "65536" 28.4, "130560" 30.2, "130561" 31.2, "261632" 33, "261633" 34, "262143" 35, "262144" 36, "931840" 37.8, "931841" 38.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 931841' 2, 'chunked: no failure up to 931841' 1) font ',10'
plot here.'vllm.quantize_q8_1-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.168724
set bmargin at screen 0.00823045
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

# SVG (the same commands)
reset
set terminal svg size 1400,486 noenhanced font 'sans,10' background rgb 'white'
set output here.'vllm.quantize_q8_1-nvidia-h100-80gb-hbm3-summary.svg'
set multiplot title 'vllm.quantize_q8_1 on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: rows
unset arrow
unset label
set tmargin at screen 0.839506
set bmargin at screen 0.674897
set label 1 'rows   (other axes: cols=2816 dtype=f32)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.858025 left font ',11'
set xrange [-0.8:55.2]
set yrange [0.4:2.6]
set xtics ("1" 0, "10" 1.8, "11" 2.8, "12" 3.8, "21" 5.6, "22" 6.6, "23" 7.6, "24" 8.6, "37" 10.4, "38" 11.4, "64" 13.2, "75" 15, "76" 16, "255" 17.8, "256" 18.8, "2730" 20.6, "2731" 21.6, "5461" 23.4, "5462" 24.4, "5957" 26.2, "5958" 27.2, "19418" 29, "19419" 30, "32767" 31.8, "32768" 32.8, "190650" 34.6, "190651" 35.6, "381300" 37.4, "381301" 38.4, "621378" 40.2, "621379" 41.2, "762600" 43, "762601" 44, "786420" 45, "786421" 46, "1242756" 47.8, "1242757" 48.8, "1525201" 50.6, "1525202" 51.6, "2485513" 53.4, "2485514" 54.4) rotate by 90 right font ',9'
set ytics ('upstream: fails from 786421' 2, 'chunked: no failure up to 2485514' 1) font ',10'
set arrow 1 from 45.5,1.55 to 45.5,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.quantize_q8_1-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.quantize_q8_1-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.473251
set bmargin at screen 0.308642
set label 1 'cols   (other axes: dtype=f32 rows=64)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.49177 left font ',11'
set xrange [-0.8:39.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "3" 1, "4" 2, "255" 3.8, "256" 4.8, "511" 6.6, "512" 7.6, "513" 8.6, "1023" 10.4, "1024" 11.4, "1536" 13.2, "1537" 14.2, "2816" 16, "3584" 17.8, "3585" 18.8, "32256" 20.6, "32257" 21.6, "32767" 22.6, "32768" 23.6, "65024" 25.4, "65025" 26.4, "65535" 27.4, "65536" 28.4, "130560" 30.2, "130561" 31.2, "261632" 33, "261633" 34, "262143" 35, "262144" 36, "931840" 37.8, "931841" 38.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 931841' 2, 'chunked: no failure up to 931841' 1) font ',10'
plot here.'vllm.quantize_q8_1-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.168724
set bmargin at screen 0.00823045
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

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
set terminal pngcairo size 1400,486 noenhanced font ',10'
set output here.'vllm.quantize_q8_1-nvidia-h200-summary.png'
set multiplot title 'vllm.quantize_q8_1 on NVIDIA H200: where each variant fails, per axis' font ',14'
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
set label 1 'rows   (other axes: cols=2816)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.858025 left font ',11'
set xrange [-0.8:12.4]
set yrange [0.4:2.6]
set xtics ("64" 0, "786419" 1.8, "786420" 2.8, "786421" 3.8, "786422" 4.8, "786423" 5.8, "2490329" 7.6, "2490330" 8.6, "2490331" 9.6, "2490332" 10.6, "2490333" 11.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 786421' 2, 'chunked: no failure up to 2490333' 1) font ',10'
set arrow 1 from 3.3,1.55 to 3.3,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.quantize_q8_1-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.quantize_q8_1-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.473251
set bmargin at screen 0.308642
set label 1 'cols   (other axes: dtype=f32 rows=64)' at screen 0.242857, screen 0.49177 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:2.6]
set xtics ("2816" 0, "130560" 1.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 130560' 2, 'chunked: no failure up to 2816' 1) font ',10'
plot here.'vllm.quantize_q8_1-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

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
set output here.'vllm.quantize_q8_1-nvidia-h200-summary.svg'
set multiplot title 'vllm.quantize_q8_1 on NVIDIA H200: where each variant fails, per axis' font ',14'
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
set label 1 'rows   (other axes: cols=2816)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.858025 left font ',11'
set xrange [-0.8:12.4]
set yrange [0.4:2.6]
set xtics ("64" 0, "786419" 1.8, "786420" 2.8, "786421" 3.8, "786422" 4.8, "786423" 5.8, "2490329" 7.6, "2490330" 8.6, "2490331" 9.6, "2490332" 10.6, "2490333" 11.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 786421' 2, 'chunked: no failure up to 2490333' 1) font ',10'
set arrow 1 from 3.3,1.55 to 3.3,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.quantize_q8_1-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.quantize_q8_1-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.473251
set bmargin at screen 0.308642
set label 1 'cols   (other axes: dtype=f32 rows=64)' at screen 0.242857, screen 0.49177 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:2.6]
set xtics ("2816" 0, "130560" 1.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 130560' 2, 'chunked: no failure up to 2816' 1) font ',10'
plot here.'vllm.quantize_q8_1-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

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

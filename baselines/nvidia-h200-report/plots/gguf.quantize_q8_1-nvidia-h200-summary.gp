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
set terminal pngcairo size 1400,470 noenhanced font ',10'
set output here.'gguf.quantize_q8_1-nvidia-h200-summary.png'
set multiplot title 'gguf.quantize_q8_1 on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: rows
unset arrow
unset label
set tmargin at screen 0.834043
set bmargin at screen 0.66383
set label 1 'rows   (other axes: cols=2816)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.853191 left font ',11'
set xrange [-0.8:21.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "64" 1.8, "2730" 3.6, "65534" 5.4, "65535" 6.4, "65536" 7.4, "65537" 8.4, "65538" 9.4, "190649" 11.2, "699049" 13, "699050" 14, "699051" 15, "699052" 16, "699053" 17, "762600" 18.8, "1242758" 20.6) rotate by 90 right font ',9'
set ytics ('legacy: fails from 65536' 2, 'fixed: no failure up to 1242758' 1) font ',10'
set arrow 1 from 6.9,1.55 to 6.9,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'gguf.quantize_q8_1-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'gguf.quantize_q8_1-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.455319
set bmargin at screen 0.285106
set label 1 'cols   (other axes: rows=64)' at screen 0.242857, screen 0.474468 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:2.6]
set xtics ("1536" 0, "2816" 1.8) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 2816' 2, 'fixed: no failure up to 2816' 1) font ',10'
plot here.'gguf.quantize_q8_1-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.174468
set bmargin at screen 0.00851064
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
set terminal svg size 1400,470 noenhanced font 'sans,10' background rgb 'white'
set output here.'gguf.quantize_q8_1-nvidia-h200-summary.svg'
set multiplot title 'gguf.quantize_q8_1 on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: rows
unset arrow
unset label
set tmargin at screen 0.834043
set bmargin at screen 0.66383
set label 1 'rows   (other axes: cols=2816)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.853191 left font ',11'
set xrange [-0.8:21.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "64" 1.8, "2730" 3.6, "65534" 5.4, "65535" 6.4, "65536" 7.4, "65537" 8.4, "65538" 9.4, "190649" 11.2, "699049" 13, "699050" 14, "699051" 15, "699052" 16, "699053" 17, "762600" 18.8, "1242758" 20.6) rotate by 90 right font ',9'
set ytics ('legacy: fails from 65536' 2, 'fixed: no failure up to 1242758' 1) font ',10'
set arrow 1 from 6.9,1.55 to 6.9,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'gguf.quantize_q8_1-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'gguf.quantize_q8_1-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.455319
set bmargin at screen 0.285106
set label 1 'cols   (other axes: rows=64)' at screen 0.242857, screen 0.474468 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:2.6]
set xtics ("1536" 0, "2816" 1.8) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 2816' 2, 'fixed: no failure up to 2816' 1) font ',10'
plot here.'gguf.quantize_q8_1-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.174468
set bmargin at screen 0.00851064
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

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
set terminal pngcairo size 1400,626 noenhanced font ',10'
set output here.'vllm.mmvq-nvidia-h100-80gb-hbm3-summary.png'
set multiplot title 'vllm.mmvq on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: rows
unset arrow
unset label
set tmargin at screen 0.875399
set bmargin at screen 0.747604
set label 1 'rows   (other axes: cols=2816 dtype=f32 nvecs=8 quant=q4_0)   + 7 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.889776 left font ',11'
set xrange [-0.8:46.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "11" 1.8, "12" 2.8, "20" 4.6, "21" 5.6, "23" 6.6, "24" 7.6, "31" 9.4, "32" 10.4, "41" 12.2, "42" 13.2, "127" 15, "128" 16, "255" 17.8, "256" 18.8, "1023" 20.6, "1024" 21.6, "1408" 23.4, "2047" 25.2, "2048" 26.2, "4095" 28, "4096" 29, "5957" 30.8, "5958" 31.8, "8191" 33.6, "8192" 34.6, "10591" 36.4, "10592" 37.4, "32767" 39.2, "32768" 40.2, "65535" 42, "65536" 43, "524287" 44.8, "524288" 45.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 524288' 2, 'chunked: no failure up to 524288' 1) font ',10'
plot here.'vllm.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.603834
set bmargin at screen 0.476038
set label 1 'cols   (other axes: dtype=f32 nvecs=8 quant=q4_0 rows=1408)   + 5 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.618211 left font ',11'
set xrange [-0.8:37]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "96" 3.6, "224" 5.4, "256" 7.2, "2816" 9, "4064" 10.8, "4096" 11.8, "8160" 13.6, "8192" 14.6, "11904" 16.4, "11936" 17.4, "14336" 19.2, "14368" 20.2, "21152" 22, "21184" 23, "28672" 24.8, "28704" 25.8, "32736" 27.6, "32768" 28.6, "65024" 30.4, "65056" 31.4, "65504" 32.4, "65536" 33.4, "1048064" 35.2, "1048096" 36.2) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 1048096' 2, 'chunked: no failure up to 1048096' 1) font ',10'
plot here.'vllm.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: nvecs
unset arrow
unset label
set tmargin at screen 0.319489
set bmargin at screen 0.191693
set label 1 'nvecs   (other axes: cols=2816 dtype=f32 quant=q4_0 rows=1408)   + 25 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.333866 left font ',11'
set xrange [-0.8:33.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "8" 2.8, "11" 3.8, "12" 4.8, "23" 6.6, "24" 7.6, "37" 9.4, "38" 10.4, "46" 12.2, "47" 13.2, "75" 15, "76" 16, "255" 17.8, "256" 18.8, "372" 20.6, "373" 21.6, "5957" 23.4, "5958" 24.4, "11915" 26.2, "11916" 27.2, "19418" 29, "19419" 30, "32767" 31.8, "32768" 32.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 32768' 2, 'chunked: no failure up to 32768' 1) font ',10'
plot here.'vllm.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0958466
set bmargin at screen 0.00638978
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

# SVG (the same commands)
reset
set terminal svg size 1400,626 noenhanced font 'sans,10' background rgb 'white'
set output here.'vllm.mmvq-nvidia-h100-80gb-hbm3-summary.svg'
set multiplot title 'vllm.mmvq on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: rows
unset arrow
unset label
set tmargin at screen 0.875399
set bmargin at screen 0.747604
set label 1 'rows   (other axes: cols=2816 dtype=f32 nvecs=8 quant=q4_0)   + 7 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.889776 left font ',11'
set xrange [-0.8:46.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "11" 1.8, "12" 2.8, "20" 4.6, "21" 5.6, "23" 6.6, "24" 7.6, "31" 9.4, "32" 10.4, "41" 12.2, "42" 13.2, "127" 15, "128" 16, "255" 17.8, "256" 18.8, "1023" 20.6, "1024" 21.6, "1408" 23.4, "2047" 25.2, "2048" 26.2, "4095" 28, "4096" 29, "5957" 30.8, "5958" 31.8, "8191" 33.6, "8192" 34.6, "10591" 36.4, "10592" 37.4, "32767" 39.2, "32768" 40.2, "65535" 42, "65536" 43, "524287" 44.8, "524288" 45.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 524288' 2, 'chunked: no failure up to 524288' 1) font ',10'
plot here.'vllm.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.603834
set bmargin at screen 0.476038
set label 1 'cols   (other axes: dtype=f32 nvecs=8 quant=q4_0 rows=1408)   + 5 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.618211 left font ',11'
set xrange [-0.8:37]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "96" 3.6, "224" 5.4, "256" 7.2, "2816" 9, "4064" 10.8, "4096" 11.8, "8160" 13.6, "8192" 14.6, "11904" 16.4, "11936" 17.4, "14336" 19.2, "14368" 20.2, "21152" 22, "21184" 23, "28672" 24.8, "28704" 25.8, "32736" 27.6, "32768" 28.6, "65024" 30.4, "65056" 31.4, "65504" 32.4, "65536" 33.4, "1048064" 35.2, "1048096" 36.2) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 1048096' 2, 'chunked: no failure up to 1048096' 1) font ',10'
plot here.'vllm.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: nvecs
unset arrow
unset label
set tmargin at screen 0.319489
set bmargin at screen 0.191693
set label 1 'nvecs   (other axes: cols=2816 dtype=f32 quant=q4_0 rows=1408)   + 25 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.333866 left font ',11'
set xrange [-0.8:33.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "8" 2.8, "11" 3.8, "12" 4.8, "23" 6.6, "24" 7.6, "37" 9.4, "38" 10.4, "46" 12.2, "47" 13.2, "75" 15, "76" 16, "255" 17.8, "256" 18.8, "372" 20.6, "373" 21.6, "5957" 23.4, "5958" 24.4, "11915" 26.2, "11916" 27.2, "19418" 29, "19419" 30, "32767" 31.8, "32768" 32.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 32768' 2, 'chunked: no failure up to 32768' 1) font ',10'
plot here.'vllm.mmvq-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0958466
set bmargin at screen 0.00638978
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

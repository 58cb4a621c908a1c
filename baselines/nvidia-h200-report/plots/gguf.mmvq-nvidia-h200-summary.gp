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
set terminal pngcairo size 1400,648 noenhanced font ',10'
set output here.'gguf.mmvq-nvidia-h200-summary.png'
set multiplot title 'gguf.mmvq on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: rows
unset arrow
unset label
set tmargin at screen 0.87963
set bmargin at screen 0.756173
set label 1 'rows   (other axes: cols=2816 dtype=f32 nvecs=8 quant=q4_0)   + 25 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.893519 left font ',11'
set xrange [-0.8:43.8]
set yrange [0.4:2.6]
set xtics ("1" 0, "11" 1.8, "12" 2.8, "20" 4.6, "21" 5.6, "23" 6.6, "24" 7.6, "31" 9.4, "32" 10.4, "41" 12.2, "42" 13.2, "127" 15, "128" 16, "255" 17.8, "256" 18.8, "1023" 20.6, "1024" 21.6, "2047" 23.4, "2048" 24.4, "4095" 26.2, "4096" 27.2, "5957" 29, "5958" 30, "8191" 31.8, "8192" 32.8, "10591" 34.6, "10592" 35.6, "32768" 37.4, "65535" 39.2, "65536" 40.2, "524287" 42, "524288" 43) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 524288' 2, 'fixed: no failure up to 524288' 1) font ',10'
plot here.'gguf.mmvq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.617284
set bmargin at screen 0.493827
set label 1 'cols   (other axes: dtype=f32 nvecs=8 quant=q4_0 rows=1408)   + 15 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.631173 left font ',11'
set xrange [-0.8:32.4]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "96" 3.6, "224" 5.4, "256" 7.2, "4064" 9, "4096" 10, "8160" 11.8, "8192" 12.8, "11904" 14.6, "11936" 15.6, "14336" 17.4, "14368" 18.4, "21152" 20.2, "21184" 21.2, "28672" 23, "28704" 24, "32736" 25.8, "32768" 26.8, "65024" 28.6, "65056" 29.6, "65504" 30.6, "65536" 31.6) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 65536' 2, 'fixed: no failure up to 65536' 1) font ',10'
plot here.'gguf.mmvq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: nvecs
unset arrow
unset label
set tmargin at screen 0.367284
set bmargin at screen 0.243827
set label 1 'nvecs   (other axes: cols=2816 dtype=f32 quant=q4_0 rows=1408)   + 20 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.381173 left font ',11'
set xrange [-0.8:34.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "11" 2.8, "12" 3.8, "23" 5.6, "24" 6.6, "37" 8.4, "38" 9.4, "46" 11.2, "47" 12.2, "75" 14, "76" 15, "255" 16.8, "256" 17.8, "372" 19.6, "373" 20.6, "5957" 22.4, "5958" 23.4, "11915" 25.2, "11916" 26.2, "19418" 28, "19419" 29, "32767" 30.8, "1242756" 32.6, "1242757" 33.6) rotate by 90 right font ',9'
set ytics ('legacy: fails from 1242756' 2, 'fixed: no failure up to 32767' 1) font ',10'
set arrow 1 from 31.7,1.55 to 31.7,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'gguf.mmvq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'gguf.mmvq-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.126543
set bmargin at screen 0.00617284
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
set terminal svg size 1400,648 noenhanced font 'sans,10' background rgb 'white'
set output here.'gguf.mmvq-nvidia-h200-summary.svg'
set multiplot title 'gguf.mmvq on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: rows
unset arrow
unset label
set tmargin at screen 0.87963
set bmargin at screen 0.756173
set label 1 'rows   (other axes: cols=2816 dtype=f32 nvecs=8 quant=q4_0)   + 25 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.893519 left font ',11'
set xrange [-0.8:43.8]
set yrange [0.4:2.6]
set xtics ("1" 0, "11" 1.8, "12" 2.8, "20" 4.6, "21" 5.6, "23" 6.6, "24" 7.6, "31" 9.4, "32" 10.4, "41" 12.2, "42" 13.2, "127" 15, "128" 16, "255" 17.8, "256" 18.8, "1023" 20.6, "1024" 21.6, "2047" 23.4, "2048" 24.4, "4095" 26.2, "4096" 27.2, "5957" 29, "5958" 30, "8191" 31.8, "8192" 32.8, "10591" 34.6, "10592" 35.6, "32768" 37.4, "65535" 39.2, "65536" 40.2, "524287" 42, "524288" 43) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 524288' 2, 'fixed: no failure up to 524288' 1) font ',10'
plot here.'gguf.mmvq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.617284
set bmargin at screen 0.493827
set label 1 'cols   (other axes: dtype=f32 nvecs=8 quant=q4_0 rows=1408)   + 15 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.631173 left font ',11'
set xrange [-0.8:32.4]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "96" 3.6, "224" 5.4, "256" 7.2, "4064" 9, "4096" 10, "8160" 11.8, "8192" 12.8, "11904" 14.6, "11936" 15.6, "14336" 17.4, "14368" 18.4, "21152" 20.2, "21184" 21.2, "28672" 23, "28704" 24, "32736" 25.8, "32768" 26.8, "65024" 28.6, "65056" 29.6, "65504" 30.6, "65536" 31.6) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 65536' 2, 'fixed: no failure up to 65536' 1) font ',10'
plot here.'gguf.mmvq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: nvecs
unset arrow
unset label
set tmargin at screen 0.367284
set bmargin at screen 0.243827
set label 1 'nvecs   (other axes: cols=2816 dtype=f32 quant=q4_0 rows=1408)   + 20 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.381173 left font ',11'
set xrange [-0.8:34.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "11" 2.8, "12" 3.8, "23" 5.6, "24" 6.6, "37" 8.4, "38" 9.4, "46" 11.2, "47" 12.2, "75" 14, "76" 15, "255" 16.8, "256" 17.8, "372" 19.6, "373" 20.6, "5957" 22.4, "5958" 23.4, "11915" 25.2, "11916" 26.2, "19418" 28, "19419" 29, "32767" 30.8, "1242756" 32.6, "1242757" 33.6) rotate by 90 right font ',9'
set ytics ('legacy: fails from 1242756' 2, 'fixed: no failure up to 32767' 1) font ',10'
set arrow 1 from 31.7,1.55 to 31.7,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'gguf.mmvq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'gguf.mmvq-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.126543
set bmargin at screen 0.00617284
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

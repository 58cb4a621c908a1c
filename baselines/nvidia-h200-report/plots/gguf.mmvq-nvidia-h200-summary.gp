# Written by gridfuzz report. Draw it from any folder: gnuplot PATH/TO/THIS.gp
# Data and pictures are beside this script: its folder comes from ARG0 (its path as given
# to gnuplot); piped into gnuplot (no ARG0) it uses the folder where it was written.
gf_cut = 0
if (exists("ARG0") && strlen(ARG0) > 0) {
  do for [gf_i = 1:strlen(ARG0)] { if (ARG0[gf_i:gf_i] eq "/") { gf_cut = gf_i } }
  here = ARG0[1:gf_cut]
} else {
  here = '/work/main/baselines/nvidia-h200-report/plots/'
}

# PNG
reset
set terminal pngcairo size 1400,338 noenhanced font ',10'
set output here.'gguf.mmvq-nvidia-h200-summary.png'
set multiplot title 'gguf.mmvq on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: nvecs
unset arrow
unset label
set tmargin at screen 0.769231
set bmargin at screen 0.532544
set label 1 'nvecs   (other axes: cols=2816 dtype=f32 quant=q4_0 rows=1408)' at screen 0.242857, screen 0.795858 left font ',11'
set xrange [-0.8:14.2]
set yrange [0.4:2.6]
set xtics ("8" 0, "65534" 1.8, "65535" 2.8, "65536" 3.8, "65537" 4.8, "65538" 5.8, "786419" 7.6, "786420" 8.6, "786421" 9.6, "786422" 10.6, "786423" 11.6, "1525200" 13.4) rotate by 90 right font ',9'
set ytics ('legacy: fails from 65536' 2, 'fixed: no failure up to 1525200' 1) font ',10'
set arrow 1 from 3.3,1.55 to 3.3,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'gguf.mmvq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'gguf.mmvq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'gguf.mmvq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.307692
set bmargin at screen 0.0118343
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
set terminal svg size 1400,338 noenhanced font 'sans,10' background rgb 'white'
set output here.'gguf.mmvq-nvidia-h200-summary.svg'
set multiplot title 'gguf.mmvq on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: nvecs
unset arrow
unset label
set tmargin at screen 0.769231
set bmargin at screen 0.532544
set label 1 'nvecs   (other axes: cols=2816 dtype=f32 quant=q4_0 rows=1408)' at screen 0.242857, screen 0.795858 left font ',11'
set xrange [-0.8:14.2]
set yrange [0.4:2.6]
set xtics ("8" 0, "65534" 1.8, "65535" 2.8, "65536" 3.8, "65537" 4.8, "65538" 5.8, "786419" 7.6, "786420" 8.6, "786421" 9.6, "786422" 10.6, "786423" 11.6, "1525200" 13.4) rotate by 90 right font ',9'
set ytics ('legacy: fails from 65536' 2, 'fixed: no failure up to 1525200' 1) font ',10'
set arrow 1 from 3.3,1.55 to 3.3,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'gguf.mmvq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'gguf.mmvq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'gguf.mmvq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.307692
set bmargin at screen 0.0118343
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

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
set terminal pngcairo size 1400,776 noenhanced font ',10'
set output here.'affine.gather_qmm-nvidia-h200-summary.png'
set multiplot title 'affine.gather_qmm on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.899485
set bmargin at screen 0.796392
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 top_k=8)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.911082 left font ',11'
set xrange [-0.8:13.8]
set yrange [0.4:2.6]
set xtics ("16" 0, "1365" 1.8, "8190" 3.6, "8191" 4.6, "8192" 5.6, "8193" 6.6, "8194" 7.6, "262142" 9.4, "349524" 11.2, "524291" 13) rotate by 90 right font ',9'
set ytics ('fixed: no failure up to 524291' 2, 'legacy: fails from 8192' 1) font ',10'
set arrow 1 from 5.1,0.55 to 5.1,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'affine.gather_qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.680412
set bmargin at screen 0.57732
set label 1 'top_k   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16)' at screen 0.242857, screen 0.69201 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "8" 1.8) rotate by 90 right font ',9'
set ytics ('fixed: no failure up to 8' 2, 'legacy: no failure up to 8' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.512887
set bmargin at screen 0.409794
set label 1 'rows   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 tokens=16 top_k=8)' at screen 0.242857, screen 0.524485 left font ',11'
set xrange [-0.8:8.4]
set yrange [0.4:2.6]
set xtics ("768" 0, "7936" 1.8, "32640" 3.6, "32768" 4.6, "32896" 5.6, "33024" 6.6, "33152" 7.6) rotate by 90 right font ',9'
set ytics ('fixed: no failure up to 33152' 2, 'legacy: fails from 32896' 1) font ',10'
set arrow 1 from 5.1,0.55 to 5.1,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'affine.gather_qmm-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.304124
set bmargin at screen 0.201031
set label 1 'cols   (other axes: bits=4 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16 top_k=8)' at screen 0.242857, screen 0.315722 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:2.6]
set xtics ("64" 0, "4096" 1.8) rotate by 90 right font ',9'
set ytics ('fixed: no failure up to 4096' 2, 'legacy: no failure up to 4096' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.134021
set bmargin at screen 0.00515464
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
set terminal svg size 1400,776 noenhanced font 'sans,10' background rgb 'white'
set output here.'affine.gather_qmm-nvidia-h200-summary.svg'
set multiplot title 'affine.gather_qmm on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.899485
set bmargin at screen 0.796392
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 top_k=8)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.911082 left font ',11'
set xrange [-0.8:13.8]
set yrange [0.4:2.6]
set xtics ("16" 0, "1365" 1.8, "8190" 3.6, "8191" 4.6, "8192" 5.6, "8193" 6.6, "8194" 7.6, "262142" 9.4, "349524" 11.2, "524291" 13) rotate by 90 right font ',9'
set ytics ('fixed: no failure up to 524291' 2, 'legacy: fails from 8192' 1) font ',10'
set arrow 1 from 5.1,0.55 to 5.1,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'affine.gather_qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.680412
set bmargin at screen 0.57732
set label 1 'top_k   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16)' at screen 0.242857, screen 0.69201 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "8" 1.8) rotate by 90 right font ',9'
set ytics ('fixed: no failure up to 8' 2, 'legacy: no failure up to 8' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.512887
set bmargin at screen 0.409794
set label 1 'rows   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 tokens=16 top_k=8)' at screen 0.242857, screen 0.524485 left font ',11'
set xrange [-0.8:8.4]
set yrange [0.4:2.6]
set xtics ("768" 0, "7936" 1.8, "32640" 3.6, "32768" 4.6, "32896" 5.6, "33024" 6.6, "33152" 7.6) rotate by 90 right font ',9'
set ytics ('fixed: no failure up to 33152' 2, 'legacy: fails from 32896' 1) font ',10'
set arrow 1 from 5.1,0.55 to 5.1,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'affine.gather_qmm-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.304124
set bmargin at screen 0.201031
set label 1 'cols   (other axes: bits=4 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16 top_k=8)' at screen 0.242857, screen 0.315722 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:2.6]
set xtics ("64" 0, "4096" 1.8) rotate by 90 right font ',9'
set ytics ('fixed: no failure up to 4096' 2, 'legacy: no failure up to 4096' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.134021
set bmargin at screen 0.00515464
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

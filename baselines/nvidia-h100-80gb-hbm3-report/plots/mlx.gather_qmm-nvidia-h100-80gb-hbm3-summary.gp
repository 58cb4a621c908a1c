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
set terminal pngcairo size 1400,900 noenhanced font ',10'
set output here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.png'
set multiplot title 'mlx.gather_qmm on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.913333
set bmargin at screen 0.824444
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 top_k=8)   + 23 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.923333 left font ',11'
set xrange [-0.8:43.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "5" 2, "6" 3, "7" 4, "8" 5, "10" 6, "11" 7, "15" 8, "16" 9, "31" 10.8, "32" 11.8, "42" 13.6, "43" 14.6, "85" 16.4, "86" 17.4, "255" 19.2, "256" 20.2, "511" 22, "512" 23, "682" 24.8, "683" 25.8, "1365" 27.6, "1366" 28.6, "2730" 30.4, "2731" 31.4, "4095" 33.2, "4096" 34.2, "8190" 36, "8191" 37, "8192" 38, "8193" 39, "8194" 40, "21845" 41.8, "21846" 42.8) rotate by 90 right font ',9'
set ytics ('upstream: fails from 8192' 2, 'chunked: no failure up to 21846' 1) font ',10'
set arrow 1 from 37.5,1.55 to 37.5,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.733333
set bmargin at screen 0.644444
set label 1 'top_k   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16)' at screen 0.242857, screen 0.743333 left font ',11'
set xrange [-0.8:9.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "7" 5, "8" 6, "15" 7.8, "16" 8.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 16' 2, 'chunked: no failure up to 16' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.58
set bmargin at screen 0.491111
set label 1 'experts   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 rows=768 tokens=16 top_k=8)   + 8 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.59 left font ',11'
set xrange [-0.8:17.6]
set yrange [0.4:2.6]
set xtics ("15" 0, "16" 1, "31" 2.8, "32" 3.8, "42" 5.6, "43" 6.6, "85" 8.4, "86" 9.4, "128" 11.2, "255" 13, "256" 14, "341" 15.8, "342" 16.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 342' 2, 'chunked: no failure up to 342' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.417778
set bmargin at screen 0.328889
set label 1 'rows   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 tokens=16 top_k=8)   + 13 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.427778 left font ',11'
set xrange [-0.8:13.4]
set yrange [0.4:2.6]
set xtics ("128" 0, "256" 1.8, "384" 3.6, "512" 5.4, "768" 7.2, "1920" 9, "2048" 10.8, "3072" 12.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 3072' 2, 'chunked: no failure up to 3072' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.246667
set bmargin at screen 0.157778
set label 1 'cols   (other axes: bits=4 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16 top_k=8)   + 10 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.256667 left font ',11'
set xrange [-0.8:23.8]
set yrange [0.4:2.6]
set xtics ("64" 0, "128" 1.8, "192" 3.6, "256" 5.4, "448" 7.2, "512" 9, "1344" 10.8, "1408" 11.8, "1984" 13.6, "2048" 14.6, "4032" 16.4, "4096" 17.4, "8128" 19.2, "8192" 20.2, "10880" 22, "10944" 23) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 10944' 2, 'chunked: no failure up to 10944' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0911111
set bmargin at screen 0.00444444
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
set terminal svg size 1400,900 noenhanced font 'sans,10' background rgb 'white'
set output here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.svg'
set multiplot title 'mlx.gather_qmm on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.913333
set bmargin at screen 0.824444
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 top_k=8)   + 23 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.923333 left font ',11'
set xrange [-0.8:43.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "5" 2, "6" 3, "7" 4, "8" 5, "10" 6, "11" 7, "15" 8, "16" 9, "31" 10.8, "32" 11.8, "42" 13.6, "43" 14.6, "85" 16.4, "86" 17.4, "255" 19.2, "256" 20.2, "511" 22, "512" 23, "682" 24.8, "683" 25.8, "1365" 27.6, "1366" 28.6, "2730" 30.4, "2731" 31.4, "4095" 33.2, "4096" 34.2, "8190" 36, "8191" 37, "8192" 38, "8193" 39, "8194" 40, "21845" 41.8, "21846" 42.8) rotate by 90 right font ',9'
set ytics ('upstream: fails from 8192' 2, 'chunked: no failure up to 21846' 1) font ',10'
set arrow 1 from 37.5,1.55 to 37.5,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.733333
set bmargin at screen 0.644444
set label 1 'top_k   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16)' at screen 0.242857, screen 0.743333 left font ',11'
set xrange [-0.8:9.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "7" 5, "8" 6, "15" 7.8, "16" 8.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 16' 2, 'chunked: no failure up to 16' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.58
set bmargin at screen 0.491111
set label 1 'experts   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 rows=768 tokens=16 top_k=8)   + 8 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.59 left font ',11'
set xrange [-0.8:17.6]
set yrange [0.4:2.6]
set xtics ("15" 0, "16" 1, "31" 2.8, "32" 3.8, "42" 5.6, "43" 6.6, "85" 8.4, "86" 9.4, "128" 11.2, "255" 13, "256" 14, "341" 15.8, "342" 16.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 342' 2, 'chunked: no failure up to 342' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.417778
set bmargin at screen 0.328889
set label 1 'rows   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 tokens=16 top_k=8)   + 13 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.427778 left font ',11'
set xrange [-0.8:13.4]
set yrange [0.4:2.6]
set xtics ("128" 0, "256" 1.8, "384" 3.6, "512" 5.4, "768" 7.2, "1920" 9, "2048" 10.8, "3072" 12.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 3072' 2, 'chunked: no failure up to 3072' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.246667
set bmargin at screen 0.157778
set label 1 'cols   (other axes: bits=4 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16 top_k=8)   + 10 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.256667 left font ',11'
set xrange [-0.8:23.8]
set yrange [0.4:2.6]
set xtics ("64" 0, "128" 1.8, "192" 3.6, "256" 5.4, "448" 7.2, "512" 9, "1344" 10.8, "1408" 11.8, "1984" 13.6, "2048" 14.6, "4032" 16.4, "4096" 17.4, "8128" 19.2, "8192" 20.2, "10880" 22, "10944" 23) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 10944' 2, 'chunked: no failure up to 10944' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0911111
set bmargin at screen 0.00444444
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

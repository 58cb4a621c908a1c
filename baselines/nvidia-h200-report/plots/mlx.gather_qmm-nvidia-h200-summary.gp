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
set terminal pngcairo size 1400,908 noenhanced font ',10'
set output here.'mlx.gather_qmm-nvidia-h200-summary.png'
set multiplot title 'mlx.gather_qmm on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.914097
set bmargin at screen 0.825991
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 top_k=8)   + 48 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.924009 left font ',11'
set xrange [-0.8:33]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "5" 2, "6" 3, "7" 4, "8" 5, "10" 6, "11" 7, "15" 8, "31" 9.8, "32" 10.8, "42" 12.6, "43" 13.6, "85" 15.4, "86" 16.4, "255" 18.2, "256" 19.2, "511" 21, "512" 22, "682" 23.8, "683" 24.8, "1365" 26.6, "1366" 27.6, "2731" 29.4, "4095" 31.2, "4096" 32.2) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4096' 2, 'chunked: no failure up to 4096' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.744493
set bmargin at screen 0.656388
set label 1 'top_k   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.754405 left font ',11'
set xrange [-0.8:8.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "7" 5, "15" 6.8, "16" 7.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 16' 2, 'chunked: no failure up to 16' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.592511
set bmargin at screen 0.504405
set label 1 'experts   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 rows=768 tokens=16 top_k=8)   + 12 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.602423 left font ',11'
set xrange [-0.8:15.8]
set yrange [0.4:2.6]
set xtics ("15" 0, "16" 1, "31" 2.8, "32" 3.8, "42" 5.6, "43" 6.6, "85" 8.4, "86" 9.4, "255" 11.2, "256" 12.2, "341" 14, "342" 15) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 342' 2, 'chunked: no failure up to 342' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.431718
set bmargin at screen 0.343612
set label 1 'rows   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 tokens=16 top_k=8)   + 38 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.44163 left font ',11'
set xrange [-0.8:25.6]
set yrange [0.4:2.6]
set xtics ("128" 0, "256" 1.8, "384" 3.6, "512" 5.4, "1920" 7.2, "2048" 9, "3072" 10.8, "16256" 12.6, "16384" 13.6, "32640" 15.4, "32768" 16.4, "65408" 18.2, "65536" 19.2, "130944" 21, "131072" 22, "262016" 23.8, "262144" 24.8) rotate by 90 right font ',9'
set ytics ('upstream: fails from 16256' 2, 'chunked: fails from 16256' 1) font ',10'
set arrow 1 from 11.7,1.55 to 11.7,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 11.7,0.55 to 11.7,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.244493
set bmargin at screen 0.156388
set label 1 'cols   (other axes: bits=4 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16 top_k=8)   + 10 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.254405 left font ',11'
set xrange [-0.8:25.6]
set yrange [0.4:2.6]
set xtics ("64" 0, "128" 1.8, "192" 3.6, "256" 5.4, "448" 7.2, "512" 9, "1344" 10.8, "1408" 11.8, "1984" 13.6, "2048" 14.6, "4032" 16.4, "8128" 18.2, "8192" 19.2, "10880" 21, "10944" 22, "65472" 23.8, "65536" 24.8) rotate by 90 right font ',9'
set ytics ('upstream: fails from 65472' 2, 'chunked: fails from 65472' 1) font ',10'
set arrow 1 from 22.9,1.55 to 22.9,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 22.9,0.55 to 22.9,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 6 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0903084
set bmargin at screen 0.00440529
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
set terminal svg size 1400,908 noenhanced font 'sans,10' background rgb 'white'
set output here.'mlx.gather_qmm-nvidia-h200-summary.svg'
set multiplot title 'mlx.gather_qmm on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.914097
set bmargin at screen 0.825991
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 top_k=8)   + 48 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.924009 left font ',11'
set xrange [-0.8:33]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "5" 2, "6" 3, "7" 4, "8" 5, "10" 6, "11" 7, "15" 8, "31" 9.8, "32" 10.8, "42" 12.6, "43" 13.6, "85" 15.4, "86" 16.4, "255" 18.2, "256" 19.2, "511" 21, "512" 22, "682" 23.8, "683" 24.8, "1365" 26.6, "1366" 27.6, "2731" 29.4, "4095" 31.2, "4096" 32.2) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4096' 2, 'chunked: no failure up to 4096' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.744493
set bmargin at screen 0.656388
set label 1 'top_k   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.754405 left font ',11'
set xrange [-0.8:8.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "7" 5, "15" 6.8, "16" 7.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 16' 2, 'chunked: no failure up to 16' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.592511
set bmargin at screen 0.504405
set label 1 'experts   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 rows=768 tokens=16 top_k=8)   + 12 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.602423 left font ',11'
set xrange [-0.8:15.8]
set yrange [0.4:2.6]
set xtics ("15" 0, "16" 1, "31" 2.8, "32" 3.8, "42" 5.6, "43" 6.6, "85" 8.4, "86" 9.4, "255" 11.2, "256" 12.2, "341" 14, "342" 15) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 342' 2, 'chunked: no failure up to 342' 1) font ',10'
plot here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.431718
set bmargin at screen 0.343612
set label 1 'rows   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 tokens=16 top_k=8)   + 38 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.44163 left font ',11'
set xrange [-0.8:25.6]
set yrange [0.4:2.6]
set xtics ("128" 0, "256" 1.8, "384" 3.6, "512" 5.4, "1920" 7.2, "2048" 9, "3072" 10.8, "16256" 12.6, "16384" 13.6, "32640" 15.4, "32768" 16.4, "65408" 18.2, "65536" 19.2, "130944" 21, "131072" 22, "262016" 23.8, "262144" 24.8) rotate by 90 right font ',9'
set ytics ('upstream: fails from 16256' 2, 'chunked: fails from 16256' 1) font ',10'
set arrow 1 from 11.7,1.55 to 11.7,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 11.7,0.55 to 11.7,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.244493
set bmargin at screen 0.156388
set label 1 'cols   (other axes: bits=4 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16 top_k=8)   + 10 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.254405 left font ',11'
set xrange [-0.8:25.6]
set yrange [0.4:2.6]
set xtics ("64" 0, "128" 1.8, "192" 3.6, "256" 5.4, "448" 7.2, "512" 9, "1344" 10.8, "1408" 11.8, "1984" 13.6, "2048" 14.6, "4032" 16.4, "8128" 18.2, "8192" 19.2, "10880" 21, "10944" 22, "65472" 23.8, "65536" 24.8) rotate by 90 right font ',9'
set ytics ('upstream: fails from 65472' 2, 'chunked: fails from 65472' 1) font ',10'
set arrow 1 from 22.9,1.55 to 22.9,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 22.9,0.55 to 22.9,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'mlx.gather_qmm-nvidia-h200-summary.dat' index 6 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0903084
set bmargin at screen 0.00440529
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

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
set terminal pngcairo size 1400,870 noenhanced font ',10'
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
set tmargin at screen 0.910345
set bmargin at screen 0.818391
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 top_k=8)   + 43 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.92069 left font ',11'
set xrange [-0.8:33]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "5" 2, "6" 3, "7" 4, "8" 5, "10" 6, "11" 7, "15" 8, "31" 9.8, "32" 10.8, "42" 12.6, "43" 13.6, "85" 15.4, "86" 16.4, "255" 18.2, "256" 19.2, "511" 21, "512" 22, "682" 23.8, "683" 24.8, "1366" 26.6, "2730" 28.4, "2731" 29.4, "4095" 31.2, "4096" 32.2) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 4096' 2, 'fixed: no failure up to 4096' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.733333
set bmargin at screen 0.641379
set label 1 'top_k   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.743678 left font ',11'
set xrange [-0.8:7.6]
set yrange [0.4:2.6]
set xtics ("2" 0, "3" 1, "5" 2, "6" 3, "7" 4, "15" 5.8, "16" 6.8) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 16' 2, 'fixed: no failure up to 16' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.574713
set bmargin at screen 0.482759
set label 1 'experts   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 rows=768 tokens=16 top_k=8)   + 5 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.585057 left font ',11'
set xrange [-0.8:15.8]
set yrange [0.4:2.6]
set xtics ("15" 0, "16" 1, "31" 2.8, "32" 3.8, "42" 5.6, "43" 6.6, "85" 8.4, "86" 9.4, "255" 11.2, "256" 12.2, "341" 14, "342" 15) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 342' 2, 'fixed: no failure up to 342' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.406897
set bmargin at screen 0.314943
set label 1 'rows   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 tokens=16 top_k=8)   + 32 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.417241 left font ',11'
set xrange [-0.8:11.6]
set yrange [0.4:2.6]
set xtics ("128" 0, "256" 1.8, "384" 3.6, "512" 5.4, "1920" 7.2, "2048" 9, "3072" 10.8) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 3072' 2, 'fixed: no failure up to 3072' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.229885
set bmargin at screen 0.137931
set label 1 'cols   (other axes: bits=4 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16 top_k=8)   + 8 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.24023 left font ',11'
set xrange [-0.8:21]
set yrange [0.4:2.6]
set xtics ("128" 0, "192" 1.8, "256" 3.6, "448" 5.4, "512" 7.2, "1344" 9, "1408" 10, "1984" 11.8, "2048" 12.8, "4032" 14.6, "8128" 16.4, "8192" 17.4, "10880" 19.2, "10944" 20.2) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 10944' 2, 'fixed: no failure up to 10944' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0689655
set bmargin at screen 0.0045977
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
set terminal svg size 1400,870 noenhanced font 'sans,10' background rgb 'white'
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
set tmargin at screen 0.910345
set bmargin at screen 0.818391
set label 1 'tokens   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 top_k=8)   + 43 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.92069 left font ',11'
set xrange [-0.8:33]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "5" 2, "6" 3, "7" 4, "8" 5, "10" 6, "11" 7, "15" 8, "31" 9.8, "32" 10.8, "42" 12.6, "43" 13.6, "85" 15.4, "86" 16.4, "255" 18.2, "256" 19.2, "511" 21, "512" 22, "682" 23.8, "683" 24.8, "1366" 26.6, "2730" 28.4, "2731" 29.4, "4095" 31.2, "4096" 32.2) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 4096' 2, 'fixed: no failure up to 4096' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.733333
set bmargin at screen 0.641379
set label 1 'top_k   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.743678 left font ',11'
set xrange [-0.8:7.6]
set yrange [0.4:2.6]
set xtics ("2" 0, "3" 1, "5" 2, "6" 3, "7" 4, "15" 5.8, "16" 6.8) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 16' 2, 'fixed: no failure up to 16' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.574713
set bmargin at screen 0.482759
set label 1 'experts   (other axes: bits=4 cols=4096 dtype=bf16 group_size=64 rows=768 tokens=16 top_k=8)   + 5 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.585057 left font ',11'
set xrange [-0.8:15.8]
set yrange [0.4:2.6]
set xtics ("15" 0, "16" 1, "31" 2.8, "32" 3.8, "42" 5.6, "43" 6.6, "85" 8.4, "86" 9.4, "255" 11.2, "256" 12.2, "341" 14, "342" 15) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 342' 2, 'fixed: no failure up to 342' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.406897
set bmargin at screen 0.314943
set label 1 'rows   (other axes: bits=4 cols=4096 dtype=bf16 experts=128 group_size=64 tokens=16 top_k=8)   + 32 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.417241 left font ',11'
set xrange [-0.8:11.6]
set yrange [0.4:2.6]
set xtics ("128" 0, "256" 1.8, "384" 3.6, "512" 5.4, "1920" 7.2, "2048" 9, "3072" 10.8) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 3072' 2, 'fixed: no failure up to 3072' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.229885
set bmargin at screen 0.137931
set label 1 'cols   (other axes: bits=4 dtype=bf16 experts=128 group_size=64 rows=768 tokens=16 top_k=8)   + 8 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.24023 left font ',11'
set xrange [-0.8:21]
set yrange [0.4:2.6]
set xtics ("128" 0, "192" 1.8, "256" 3.6, "448" 5.4, "512" 7.2, "1344" 9, "1408" 10, "1984" 11.8, "2048" 12.8, "4032" 14.6, "8128" 16.4, "8192" 17.4, "10880" 19.2, "10944" 20.2) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 10944' 2, 'fixed: no failure up to 10944' 1) font ',10'
plot here.'affine.gather_qmm-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0689655
set bmargin at screen 0.0045977
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

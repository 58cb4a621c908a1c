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
set terminal pngcairo size 1400,894 noenhanced font ',10'
set output here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.png'
set multiplot title 'llamacpp.mmq on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.912752
set bmargin at screen 0.823266
set label 1 'tokens   (other axes: cols=32 experts=8 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 top_k=8)   + 32 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.922819 left font ',11'
set xrange [-0.8:14.2]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "28" 4.8, "29" 5.8, "31" 6.8, "32" 7.8, "1023" 9.6, "1024" 10.6, "32767" 12.4, "32768" 13.4) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 32768' 2, 'exact: no failure up to 32768' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.731544
set bmargin at screen 0.642058
set label 1 'top_k   (other axes: cols=32 experts=16 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=1)   + 10 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.741611 left font ',11'
set xrange [-0.8:3.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "15" 1.8, "16" 2.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 16' 2, 'exact: no failure up to 16' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.577181
set bmargin at screen 0.487696
set label 1 'experts   (other axes: cols=7168 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=512 top_k=8)   + 12 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.587248 left font ',11'
set xrange [-0.8:12]
set yrange [0.4:2.6]
set xtics ("9" 0, "10" 1, "15" 2.8, "16" 3.8, "31" 5.6, "32" 6.6, "63" 8.4, "64" 9.4, "256" 11.2) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 256' 2, 'exact: no failure up to 256' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.41387
set bmargin at screen 0.324385
set label 1 'rows   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk tokens=512 top_k=8)   + 13 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.423937 left font ',11'
set xrange [-0.8:25.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "4" 1, "5" 2, "7" 3, "8" 4, "9" 5, "10" 6, "15" 7.8, "16" 8.8, "17" 9.8, "31" 11.6, "32" 12.6, "63" 14.4, "64" 15.4, "127" 17.2, "128" 18.2, "255" 20, "256" 21, "2048" 22.8, "4096" 24.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4096' 2, 'exact: no failure up to 4096' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.241611
set bmargin at screen 0.152125
set label 1 'cols   (other axes: experts=8 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=1 top_k=1)   + 6 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.251678 left font ',11'
set xrange [-0.8:18.4]
set yrange [0.4:2.6]
set xtics ("32" 0, "448" 1.8, "3584" 3.6, "8160" 5.4, "8192" 6.4, "32736" 8.2, "32768" 9.2, "65504" 11, "65536" 12, "130560" 13.8, "130592" 14.8, "1048544" 16.6, "1048576" 17.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 1048576' 2, 'exact: no failure up to 1048576' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0671141
set bmargin at screen 0.00447427
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
set terminal svg size 1400,894 noenhanced font 'sans,10' background rgb 'white'
set output here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.svg'
set multiplot title 'llamacpp.mmq on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.912752
set bmargin at screen 0.823266
set label 1 'tokens   (other axes: cols=32 experts=8 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 top_k=8)   + 32 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.922819 left font ',11'
set xrange [-0.8:14.2]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "28" 4.8, "29" 5.8, "31" 6.8, "32" 7.8, "1023" 9.6, "1024" 10.6, "32767" 12.4, "32768" 13.4) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 32768' 2, 'exact: no failure up to 32768' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.731544
set bmargin at screen 0.642058
set label 1 'top_k   (other axes: cols=32 experts=16 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=1)   + 10 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.741611 left font ',11'
set xrange [-0.8:3.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "15" 1.8, "16" 2.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 16' 2, 'exact: no failure up to 16' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.577181
set bmargin at screen 0.487696
set label 1 'experts   (other axes: cols=7168 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=512 top_k=8)   + 12 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.587248 left font ',11'
set xrange [-0.8:12]
set yrange [0.4:2.6]
set xtics ("9" 0, "10" 1, "15" 2.8, "16" 3.8, "31" 5.6, "32" 6.6, "63" 8.4, "64" 9.4, "256" 11.2) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 256' 2, 'exact: no failure up to 256' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.41387
set bmargin at screen 0.324385
set label 1 'rows   (other axes: cols=7168 experts=256 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk tokens=512 top_k=8)   + 13 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.423937 left font ',11'
set xrange [-0.8:25.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "4" 1, "5" 2, "7" 3, "8" 4, "9" 5, "10" 6, "15" 7.8, "16" 8.8, "17" 9.8, "31" 11.6, "32" 12.6, "63" 14.4, "64" 15.4, "127" 17.2, "128" 18.2, "255" 20, "256" 21, "2048" 22.8, "4096" 24.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4096' 2, 'exact: no failure up to 4096' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.241611
set bmargin at screen 0.152125
set label 1 'cols   (other axes: experts=8 op=mul_mat_id proj=gate_up quant=q4_0 routing=topk rows=2048 tokens=1 top_k=1)   + 6 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.251678 left font ',11'
set xrange [-0.8:18.4]
set yrange [0.4:2.6]
set xtics ("32" 0, "448" 1.8, "3584" 3.6, "8160" 5.4, "8192" 6.4, "32736" 8.2, "32768" 9.2, "65504" 11, "65536" 12, "130560" 13.8, "130592" 14.8, "1048544" 16.6, "1048576" 17.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 1048576' 2, 'exact: no failure up to 1048576' 1) font ',10'
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0671141
set bmargin at screen 0.00447427
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

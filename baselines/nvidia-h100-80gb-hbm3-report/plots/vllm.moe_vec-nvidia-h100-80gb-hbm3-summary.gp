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
set terminal pngcairo size 1400,862 noenhanced font ',10'
set output here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.png'
set multiplot title 'vllm.moe_vec on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.909513
set bmargin at screen 0.816705
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)   + 20 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.919954 left font ',11'
set xrange [-0.8:40.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "11" 5.8, "12" 6.8, "23" 8.6, "24" 9.6, "31" 11.4, "32" 12.4, "37" 14.2, "38" 15.2, "46" 17, "47" 18, "64" 19.8, "75" 21.6, "76" 22.6, "255" 24.4, "256" 25.4, "511" 27.2, "512" 28.2, "1489" 30, "1490" 31, "4095" 32.8, "4096" 33.8, "5956" 35.6, "5957" 36.6, "5958" 37.6, "5959" 38.6, "5960" 39.6) rotate by 90 right font ',9'
set ytics ('chunked: no failure up to 5960' 2, 'upstream: no failure up to 5960' 1) font ',10'
plot here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.730858
set bmargin at screen 0.638051
set label 1 'top_k   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=64)' at screen 0.242857, screen 0.741299 left font ',11'
set xrange [-0.8:14.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "5" 4, "6" 5, "8" 6, "11" 7, "12" 8, "23" 9.8, "24" 10.8, "46" 12.6, "47" 13.6) rotate by 90 right font ',9'
set ytics ('chunked: no failure up to 47' 2, 'upstream: no failure up to 47' 1) font ',10'
plot here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.570766
set bmargin at screen 0.477958
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)   + 9 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.581206 left font ',11'
set xrange [-0.8:14.8]
set yrange [0.4:2.6]
set xtics ("11" 0, "12" 1, "23" 2.8, "24" 3.8, "31" 5.6, "32" 6.6, "46" 8.4, "47" 9.4, "128" 11.2, "255" 13, "256" 14) rotate by 90 right font ',9'
set ytics ('chunked: no failure up to 256' 2, 'upstream: no failure up to 256' 1) font ',10'
plot here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.401392
set bmargin at screen 0.308585
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=64 top_k=8)   + 12 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.411833 left font ',11'
set xrange [-0.8:36.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "11" 4.8, "12" 5.8, "23" 7.6, "24" 8.6, "31" 10.4, "32" 11.4, "63" 13.2, "64" 14.2, "82" 16, "83" 17, "127" 18.8, "128" 19.8, "255" 21.6, "256" 22.6, "511" 24.4, "512" 25.4, "1023" 27.2, "1024" 28.2, "1408" 30, "2047" 31.8, "2048" 32.8, "4095" 34.6, "4096" 35.6) rotate by 90 right font ',9'
set ytics ('chunked: no failure up to 4096' 2, 'upstream: no failure up to 4096' 1) font ',10'
plot here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.222738
set bmargin at screen 0.12993
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)   + 7 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.233179 left font ',11'
set xrange [-0.8:29.2]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "160" 3.6, "192" 5.4, "224" 7.2, "256" 9, "480" 10.8, "512" 12.6, "992" 14.4, "1024" 15.4, "1536" 17.2, "1568" 18.2, "2816" 20, "3584" 21.8, "3616" 22.8, "4064" 24.6, "4096" 25.6, "8160" 27.4, "8192" 28.4) rotate by 90 right font ',9'
set ytics ('chunked: no failure up to 8192' 2, 'upstream: no failure up to 8192' 1) font ',10'
plot here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0696056
set bmargin at screen 0.00464037
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
set terminal svg size 1400,862 noenhanced font 'sans,10' background rgb 'white'
set output here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.svg'
set multiplot title 'vllm.moe_vec on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.909513
set bmargin at screen 0.816705
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)   + 20 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.919954 left font ',11'
set xrange [-0.8:40.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "11" 5.8, "12" 6.8, "23" 8.6, "24" 9.6, "31" 11.4, "32" 12.4, "37" 14.2, "38" 15.2, "46" 17, "47" 18, "64" 19.8, "75" 21.6, "76" 22.6, "255" 24.4, "256" 25.4, "511" 27.2, "512" 28.2, "1489" 30, "1490" 31, "4095" 32.8, "4096" 33.8, "5956" 35.6, "5957" 36.6, "5958" 37.6, "5959" 38.6, "5960" 39.6) rotate by 90 right font ',9'
set ytics ('chunked: no failure up to 5960' 2, 'upstream: no failure up to 5960' 1) font ',10'
plot here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.730858
set bmargin at screen 0.638051
set label 1 'top_k   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=64)' at screen 0.242857, screen 0.741299 left font ',11'
set xrange [-0.8:14.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "5" 4, "6" 5, "8" 6, "11" 7, "12" 8, "23" 9.8, "24" 10.8, "46" 12.6, "47" 13.6) rotate by 90 right font ',9'
set ytics ('chunked: no failure up to 47' 2, 'upstream: no failure up to 47' 1) font ',10'
plot here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.570766
set bmargin at screen 0.477958
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)   + 9 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.581206 left font ',11'
set xrange [-0.8:14.8]
set yrange [0.4:2.6]
set xtics ("11" 0, "12" 1, "23" 2.8, "24" 3.8, "31" 5.6, "32" 6.6, "46" 8.4, "47" 9.4, "128" 11.2, "255" 13, "256" 14) rotate by 90 right font ',9'
set ytics ('chunked: no failure up to 256' 2, 'upstream: no failure up to 256' 1) font ',10'
plot here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.401392
set bmargin at screen 0.308585
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=64 top_k=8)   + 12 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.411833 left font ',11'
set xrange [-0.8:36.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "11" 4.8, "12" 5.8, "23" 7.6, "24" 8.6, "31" 10.4, "32" 11.4, "63" 13.2, "64" 14.2, "82" 16, "83" 17, "127" 18.8, "128" 19.8, "255" 21.6, "256" 22.6, "511" 24.4, "512" 25.4, "1023" 27.2, "1024" 28.2, "1408" 30, "2047" 31.8, "2048" 32.8, "4095" 34.6, "4096" 35.6) rotate by 90 right font ',9'
set ytics ('chunked: no failure up to 4096' 2, 'upstream: no failure up to 4096' 1) font ',10'
plot here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.222738
set bmargin at screen 0.12993
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)   + 7 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.233179 left font ',11'
set xrange [-0.8:29.2]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "160" 3.6, "192" 5.4, "224" 7.2, "256" 9, "480" 10.8, "512" 12.6, "992" 14.4, "1024" 15.4, "1536" 17.2, "1568" 18.2, "2816" 20, "3584" 21.8, "3616" 22.8, "4064" 24.6, "4096" 25.6, "8160" 27.4, "8192" 28.4) rotate by 90 right font ',9'
set ytics ('chunked: no failure up to 8192' 2, 'upstream: no failure up to 8192' 1) font ',10'
plot here.'vllm.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0696056
set bmargin at screen 0.00464037
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

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
set terminal pngcairo size 1400,1422 noenhanced font ',10'
set output here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.png'
set multiplot title 'gguf.moe_vec on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.945148
set bmargin at screen 0.810127
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)   + 34 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.951477 left font ',11'
set xrange [-0.8:53.6]
set yrange [0.4:6.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "11" 5.8, "12" 6.8, "23" 8.6, "24" 9.6, "31" 11.4, "32" 12.4, "37" 14.2, "38" 15.2, "46" 17, "47" 18, "64" 19.8, "75" 21.6, "76" 22.6, "127" 24.4, "128" 25.4, "255" 27.2, "256" 28.2, "511" 30, "512" 31, "1024" 32.8, "1025" 33.8, "1489" 35.6, "1490" 36.6, "2560" 38.4, "2561" 39.4, "4064" 41.2, "4065" 42.2, "4095" 43.2, "4096" 44.2, "5461" 46, "5462" 47, "5956" 48.8, "5957" 49.8, "5958" 50.8, "5959" 51.8, "5960" 52.8) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 5960' 6, 'fixed: no failure up to 5960' 5, 'zchunk: no failure up to 5960' 4, 'rows_x: no failure up to 5960' 3, 'by_expert: no failure up to 5958' 2, 'pairs_x: no failure up to 5960' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.758087
set bmargin at screen 0.623066
set label 1 'top_k   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=64)   + 6 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.764416 left font ',11'
set xrange [-0.8:19.2]
set yrange [0.4:6.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "5" 4, "6" 5, "8" 6, "11" 7, "12" 8, "15" 9, "16" 10, "23" 11.8, "24" 12.8, "31" 14.6, "32" 15.6, "46" 17.4, "47" 18.4) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 47' 6, 'fixed: no failure up to 47' 5, 'zchunk: no failure up to 47' 4, 'rows_x: no failure up to 47' 3, 'by_expert: no failure up to 47' 2, 'pairs_x: no failure up to 47' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.582278
set bmargin at screen 0.447257
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)   + 11 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.588608 left font ',11'
set xrange [-0.8:17.6]
set yrange [0.4:6.6]
set xtics ("11" 0, "12" 1, "23" 2.8, "24" 3.8, "31" 5.6, "32" 6.6, "46" 8.4, "47" 9.4, "128" 11.2, "255" 13, "256" 14, "372" 15.8, "373" 16.8) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 256' 6, 'fixed: no failure up to 256' 5, 'zchunk: no failure up to 256' 4, 'rows_x: no failure up to 256' 3, 'by_expert: no failure up to 373' 2, 'pairs_x: no failure up to 256' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.400844
set bmargin at screen 0.265823
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=64 top_k=8)   + 18 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.407173 left font ',11'
set xrange [-0.8:38.4]
set yrange [0.4:6.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "11" 4.8, "12" 5.8, "23" 7.6, "24" 8.6, "31" 10.4, "32" 11.4, "63" 13.2, "64" 14.2, "82" 16, "83" 17, "127" 18.8, "128" 19.8, "255" 21.6, "256" 22.6, "511" 24.4, "512" 25.4, "1023" 27.2, "1024" 28.2, "1408" 30, "2047" 31.8, "2048" 32.8, "4080" 34.6, "4081" 35.6, "4095" 36.6, "4096" 37.6) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 4096' 6, 'fixed: no failure up to 4096' 5, 'zchunk: no failure up to 4096' 4, 'rows_x: no failure up to 4096' 3, 'by_expert: no failure up to 4096' 2, 'pairs_x: no failure up to 4096' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.213783
set bmargin at screen 0.0787623
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)   + 8 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.220113 left font ',11'
set xrange [-0.8:29.2]
set yrange [0.4:6.6]
set xtics ("32" 0, "64" 1.8, "160" 3.6, "192" 5.4, "224" 7.2, "256" 9, "480" 10.8, "512" 12.6, "992" 14.4, "1024" 15.4, "1536" 17.2, "1568" 18.2, "2816" 20, "3584" 21.8, "3616" 22.8, "4064" 24.6, "4096" 25.6, "8160" 27.4, "8192" 28.4) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 8192' 6, 'fixed: no failure up to 8192' 5, 'zchunk: no failure up to 8192' 4, 'rows_x: no failure up to 8192' 3, 'by_expert: no failure up to 8192' 2, 'pairs_x: no failure up to 8192' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0421941
set bmargin at screen 0.00281294
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
set terminal svg size 1400,1422 noenhanced font 'sans,10' background rgb 'white'
set output here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.svg'
set multiplot title 'gguf.moe_vec on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.945148
set bmargin at screen 0.810127
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)   + 34 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.951477 left font ',11'
set xrange [-0.8:53.6]
set yrange [0.4:6.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "11" 5.8, "12" 6.8, "23" 8.6, "24" 9.6, "31" 11.4, "32" 12.4, "37" 14.2, "38" 15.2, "46" 17, "47" 18, "64" 19.8, "75" 21.6, "76" 22.6, "127" 24.4, "128" 25.4, "255" 27.2, "256" 28.2, "511" 30, "512" 31, "1024" 32.8, "1025" 33.8, "1489" 35.6, "1490" 36.6, "2560" 38.4, "2561" 39.4, "4064" 41.2, "4065" 42.2, "4095" 43.2, "4096" 44.2, "5461" 46, "5462" 47, "5956" 48.8, "5957" 49.8, "5958" 50.8, "5959" 51.8, "5960" 52.8) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 5960' 6, 'fixed: no failure up to 5960' 5, 'zchunk: no failure up to 5960' 4, 'rows_x: no failure up to 5960' 3, 'by_expert: no failure up to 5958' 2, 'pairs_x: no failure up to 5960' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.758087
set bmargin at screen 0.623066
set label 1 'top_k   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=64)   + 6 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.764416 left font ',11'
set xrange [-0.8:19.2]
set yrange [0.4:6.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "5" 4, "6" 5, "8" 6, "11" 7, "12" 8, "15" 9, "16" 10, "23" 11.8, "24" 12.8, "31" 14.6, "32" 15.6, "46" 17.4, "47" 18.4) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 47' 6, 'fixed: no failure up to 47' 5, 'zchunk: no failure up to 47' 4, 'rows_x: no failure up to 47' 3, 'by_expert: no failure up to 47' 2, 'pairs_x: no failure up to 47' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.582278
set bmargin at screen 0.447257
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)   + 11 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.588608 left font ',11'
set xrange [-0.8:17.6]
set yrange [0.4:6.6]
set xtics ("11" 0, "12" 1, "23" 2.8, "24" 3.8, "31" 5.6, "32" 6.6, "46" 8.4, "47" 9.4, "128" 11.2, "255" 13, "256" 14, "372" 15.8, "373" 16.8) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 256' 6, 'fixed: no failure up to 256' 5, 'zchunk: no failure up to 256' 4, 'rows_x: no failure up to 256' 3, 'by_expert: no failure up to 373' 2, 'pairs_x: no failure up to 256' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.400844
set bmargin at screen 0.265823
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=64 top_k=8)   + 18 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.407173 left font ',11'
set xrange [-0.8:38.4]
set yrange [0.4:6.6]
set xtics ("1" 0, "2" 1, "3" 2, "4" 3, "11" 4.8, "12" 5.8, "23" 7.6, "24" 8.6, "31" 10.4, "32" 11.4, "63" 13.2, "64" 14.2, "82" 16, "83" 17, "127" 18.8, "128" 19.8, "255" 21.6, "256" 22.6, "511" 24.4, "512" 25.4, "1023" 27.2, "1024" 28.2, "1408" 30, "2047" 31.8, "2048" 32.8, "4080" 34.6, "4081" 35.6, "4095" 36.6, "4096" 37.6) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 4096' 6, 'fixed: no failure up to 4096' 5, 'zchunk: no failure up to 4096' 4, 'rows_x: no failure up to 4096' 3, 'by_expert: no failure up to 4096' 2, 'pairs_x: no failure up to 4096' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.213783
set bmargin at screen 0.0787623
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)   + 8 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.220113 left font ',11'
set xrange [-0.8:29.2]
set yrange [0.4:6.6]
set xtics ("32" 0, "64" 1.8, "160" 3.6, "192" 5.4, "224" 7.2, "256" 9, "480" 10.8, "512" 12.6, "992" 14.4, "1024" 15.4, "1536" 17.2, "1568" 18.2, "2816" 20, "3584" 21.8, "3616" 22.8, "4064" 24.6, "4096" 25.6, "8160" 27.4, "8192" 28.4) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 8192' 6, 'fixed: no failure up to 8192' 5, 'zchunk: no failure up to 8192' 4, 'rows_x: no failure up to 8192' 3, 'by_expert: no failure up to 8192' 2, 'pairs_x: no failure up to 8192' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.0421941
set bmargin at screen 0.00281294
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

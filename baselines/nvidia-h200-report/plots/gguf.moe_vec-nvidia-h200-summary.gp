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
set terminal pngcairo size 1400,1334 noenhanced font ',10'
set output here.'gguf.moe_vec-nvidia-h200-summary.png'
set multiplot title 'gguf.moe_vec on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.941529
set bmargin at screen 0.818591
set label 1 'tokens   (other axes: cols=32 dtype=f32 experts=4 proj=gate_up quant=q4_0 rows=1 top_k=4)   + 45 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.948276 left font ',11'
set xrange [-0.8:21.4]
set yrange [0.4:5.6]
set xtics ("63" 0, "64" 1, "255" 2.8, "256" 3.8, "511" 5.6, "512" 6.6, "8191" 8.4, "8192" 9.4, "16383" 11.2, "16384" 12.2, "32767" 14, "32768" 15, "65535" 16.8, "65536" 17.8, "131071" 19.6, "131072" 20.6) rotate by 90 right font ',9'
set ytics ('legacy: fails from 16384' 5, 'fixed: no failure up to 131072' 4, 'zchunk: no failure up to 131072' 3, 'rows_x: no failure up to 131072' 2, 'pairs_x: no failure up to 131072' 1) font ',10'
set arrow 1 from 11.7,4.55 to 11.7,5.45 nohead lw 2.5 lc rgb 'black' front
plot here.'gguf.moe_vec-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'gguf.moe_vec-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.751124
set bmargin at screen 0.628186
set label 1 'top_k   (other axes: cols=32 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1 tokens=131071)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.757871 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:5.6]
set xtics ("1" 0, "8" 1.8) rotate by 90 right font ',9'
set ytics ('legacy: fails from 1 (another axis)' 5, 'fixed: no failure up to 8' 4, 'zchunk: no failure up to 8' 3, 'rows_x: no failure up to 8' 2, 'pairs_x: no failure up to 8' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'gguf.moe_vec-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#a0a0a0'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.590705
set bmargin at screen 0.467766
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)   + 3 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.597451 left font ',11'
set xrange [-0.8:10.2]
set yrange [0.4:5.6]
set xtics ("11" 0, "12" 1, "23" 2.8, "24" 3.8, "31" 5.6, "32" 6.6, "46" 8.4, "47" 9.4) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 47' 5, 'fixed: no failure up to 47' 4, 'zchunk: no failure up to 47' 3, 'rows_x: no failure up to 47' 2, 'pairs_x: no failure up to 47' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.424288
set bmargin at screen 0.301349
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=64 top_k=8)   + 16 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.431034 left font ',11'
set xrange [-0.8:28]
set yrange [0.4:5.6]
set xtics ("2" 0, "3" 1, "4" 2, "11" 3.8, "12" 4.8, "23" 6.6, "24" 7.6, "31" 9.4, "32" 10.4, "63" 12.2, "64" 13.2, "82" 15, "83" 16, "127" 17.8, "128" 18.8, "255" 20.6, "256" 21.6, "511" 23.4, "512" 24.4, "1023" 26.2, "1024" 27.2) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 1024' 5, 'fixed: no failure up to 1024' 4, 'zchunk: no failure up to 1024' 3, 'rows_x: no failure up to 1024' 2, 'pairs_x: no failure up to 1024' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.245877
set bmargin at screen 0.122939
set label 1 'cols   (other axes: dtype=f32 experts=1 proj=gate_up quant=q4_0 rows=1 tokens=1 top_k=1)   + 8 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.252624 left font ',11'
set xrange [-0.8:15.8]
set yrange [0.4:5.6]
set xtics ("32" 0, "448" 1.8, "896" 3.6, "1440" 5.4, "32256" 7.2, "32288" 8.2, "32736" 9.2, "32768" 10.2, "65024" 12, "65056" 13, "65504" 14, "65536" 15) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 65536' 5, 'fixed: no failure up to 65536' 4, 'zchunk: no failure up to 65536' 3, 'rows_x: no failure up to 65536' 2, 'pairs_x: no failure up to 65536' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h200-summary.dat' index 6 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.077961
set bmargin at screen 0.0029985
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt 7 ps 1.6 lc rgb '#a0a0a0' title 'grey: fails through another axis (the line fails from its first value)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

# SVG (the same commands)
reset
set terminal svg size 1400,1334 noenhanced font 'sans,10' background rgb 'white'
set output here.'gguf.moe_vec-nvidia-h200-summary.svg'
set multiplot title 'gguf.moe_vec on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.941529
set bmargin at screen 0.818591
set label 1 'tokens   (other axes: cols=32 dtype=f32 experts=4 proj=gate_up quant=q4_0 rows=1 top_k=4)   + 45 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.948276 left font ',11'
set xrange [-0.8:21.4]
set yrange [0.4:5.6]
set xtics ("63" 0, "64" 1, "255" 2.8, "256" 3.8, "511" 5.6, "512" 6.6, "8191" 8.4, "8192" 9.4, "16383" 11.2, "16384" 12.2, "32767" 14, "32768" 15, "65535" 16.8, "65536" 17.8, "131071" 19.6, "131072" 20.6) rotate by 90 right font ',9'
set ytics ('legacy: fails from 16384' 5, 'fixed: no failure up to 131072' 4, 'zchunk: no failure up to 131072' 3, 'rows_x: no failure up to 131072' 2, 'pairs_x: no failure up to 131072' 1) font ',10'
set arrow 1 from 11.7,4.55 to 11.7,5.45 nohead lw 2.5 lc rgb 'black' front
plot here.'gguf.moe_vec-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'gguf.moe_vec-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.751124
set bmargin at screen 0.628186
set label 1 'top_k   (other axes: cols=32 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1 tokens=131071)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.757871 left font ',11'
set xrange [-0.8:2.6]
set yrange [0.4:5.6]
set xtics ("1" 0, "8" 1.8) rotate by 90 right font ',9'
set ytics ('legacy: fails from 1 (another axis)' 5, 'fixed: no failure up to 8' 4, 'zchunk: no failure up to 8' 3, 'rows_x: no failure up to 8' 2, 'pairs_x: no failure up to 8' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'gguf.moe_vec-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#a0a0a0'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.590705
set bmargin at screen 0.467766
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=64 top_k=8)   + 3 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.597451 left font ',11'
set xrange [-0.8:10.2]
set yrange [0.4:5.6]
set xtics ("11" 0, "12" 1, "23" 2.8, "24" 3.8, "31" 5.6, "32" 6.6, "46" 8.4, "47" 9.4) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 47' 5, 'fixed: no failure up to 47' 4, 'zchunk: no failure up to 47' 3, 'rows_x: no failure up to 47' 2, 'pairs_x: no failure up to 47' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.424288
set bmargin at screen 0.301349
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=64 top_k=8)   + 16 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.431034 left font ',11'
set xrange [-0.8:28]
set yrange [0.4:5.6]
set xtics ("2" 0, "3" 1, "4" 2, "11" 3.8, "12" 4.8, "23" 6.6, "24" 7.6, "31" 9.4, "32" 10.4, "63" 12.2, "64" 13.2, "82" 15, "83" 16, "127" 17.8, "128" 18.8, "255" 20.6, "256" 21.6, "511" 23.4, "512" 24.4, "1023" 26.2, "1024" 27.2) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 1024' 5, 'fixed: no failure up to 1024' 4, 'zchunk: no failure up to 1024' 3, 'rows_x: no failure up to 1024' 2, 'pairs_x: no failure up to 1024' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.245877
set bmargin at screen 0.122939
set label 1 'cols   (other axes: dtype=f32 experts=1 proj=gate_up quant=q4_0 rows=1 tokens=1 top_k=1)   + 8 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.252624 left font ',11'
set xrange [-0.8:15.8]
set yrange [0.4:5.6]
set xtics ("32" 0, "448" 1.8, "896" 3.6, "1440" 5.4, "32256" 7.2, "32288" 8.2, "32736" 9.2, "32768" 10.2, "65024" 12, "65056" 13, "65504" 14, "65536" 15) rotate by 90 right font ',9'
set ytics ('legacy: no failure up to 65536' 5, 'fixed: no failure up to 65536' 4, 'zchunk: no failure up to 65536' 3, 'rows_x: no failure up to 65536' 2, 'pairs_x: no failure up to 65536' 1) font ',10'
plot here.'gguf.moe_vec-nvidia-h200-summary.dat' index 6 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.077961
set bmargin at screen 0.0029985
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt 7 ps 1.6 lc rgb '#a0a0a0' title 'grey: fails through another axis (the line fails from its first value)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

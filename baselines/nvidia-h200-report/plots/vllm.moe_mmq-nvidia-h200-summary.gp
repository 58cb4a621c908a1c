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
set terminal pngcairo size 1400,838 noenhanced font ',10'
set output here.'vllm.moe_mmq-nvidia-h200-summary.png'
set multiplot title 'vllm.moe_mmq on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.906921
set bmargin at screen 0.811456
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.917661 left font ',11'
set xrange [-0.8:6.2]
set yrange [0.4:2.6]
set xtics ("12" 0, "256" 1.8, "32720" 3.6, "381302" 5.4) rotate by 90 right font ',9'
set ytics ('upstream: fails from 32720' 2, 'chunked: no failure up to 32720' 1) font ',10'
set arrow 1 from 2.7,1.55 to 2.7,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.704057
set bmargin at screen 0.608592
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)' at screen 0.242857, screen 0.714797 left font ',11'
set xrange [-0.8:10.2]
set yrange [0.4:2.6]
set xtics ("128" 0, "311" 1.8, "962" 3.6, "963" 4.6, "964" 5.6, "965" 6.6, "966" 7.6, "1304" 9.4) rotate by 90 right font ',9'
set ytics ('upstream: fails from 311 (model: 964)' 2, 'chunked: fails from 311 (model: 964)' 1) font ',10'
set arrow 1 from 0.9,1.55 to 0.9,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 0.9,0.55 to 0.9,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 2 ps 1.6 lw 2 lc rgb '#d62728'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.520286
set bmargin at screen 0.424821
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=256 top_k=8)' at screen 0.242857, screen 0.531026 left font ',11'
set xrange [-0.8:4.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "1408" 1.8, "10675" 3.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 10675' 2, 'chunked: no failure up to 10675' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.326969
set bmargin at screen 0.231504
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)' at screen 0.242857, screen 0.337709 left font ',11'
set xrange [-0.8:8.4]
set yrange [0.4:2.6]
set xtics ("2816" 0, "21312" 1.8, "21344" 2.8, "21376" 3.8, "21408" 4.8, "21440" 5.8, "131072" 7.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 21376' 2, 'chunked: fails from 21376' 1) font ',10'
set arrow 1 from 3.3,1.55 to 3.3,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 3.3,0.55 to 3.3,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 6 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 7 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.150358
set bmargin at screen 0.00477327
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt 2 ps 1.6 lw 2 lc rgb '#d62728' title 'FAIL (unexpected)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

# SVG (the same commands)
reset
set terminal svg size 1400,838 noenhanced font 'sans,10' background rgb 'white'
set output here.'vllm.moe_mmq-nvidia-h200-summary.svg'
set multiplot title 'vllm.moe_mmq on NVIDIA H200: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.906921
set bmargin at screen 0.811456
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)   + 1 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.917661 left font ',11'
set xrange [-0.8:6.2]
set yrange [0.4:2.6]
set xtics ("12" 0, "256" 1.8, "32720" 3.6, "381302" 5.4) rotate by 90 right font ',9'
set ytics ('upstream: fails from 32720' 2, 'chunked: no failure up to 32720' 1) font ',10'
set arrow 1 from 2.7,1.55 to 2.7,2.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.704057
set bmargin at screen 0.608592
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)' at screen 0.242857, screen 0.714797 left font ',11'
set xrange [-0.8:10.2]
set yrange [0.4:2.6]
set xtics ("128" 0, "311" 1.8, "962" 3.6, "963" 4.6, "964" 5.6, "965" 6.6, "966" 7.6, "1304" 9.4) rotate by 90 right font ',9'
set ytics ('upstream: fails from 311 (model: 964)' 2, 'chunked: fails from 311 (model: 964)' 1) font ',10'
set arrow 1 from 0.9,1.55 to 0.9,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 0.9,0.55 to 0.9,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 2 ps 1.6 lw 2 lc rgb '#d62728'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.520286
set bmargin at screen 0.424821
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=256 top_k=8)' at screen 0.242857, screen 0.531026 left font ',11'
set xrange [-0.8:4.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "1408" 1.8, "10675" 3.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 10675' 2, 'chunked: no failure up to 10675' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.326969
set bmargin at screen 0.231504
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)' at screen 0.242857, screen 0.337709 left font ',11'
set xrange [-0.8:8.4]
set yrange [0.4:2.6]
set xtics ("2816" 0, "21312" 1.8, "21344" 2.8, "21376" 3.8, "21408" 4.8, "21440" 5.8, "131072" 7.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 21376' 2, 'chunked: fails from 21376' 1) font ',10'
set arrow 1 from 3.3,1.55 to 3.3,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 3.3,0.55 to 3.3,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 6 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 7 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.150358
set bmargin at screen 0.00477327
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt 2 ps 1.6 lw 2 lc rgb '#d62728' title 'FAIL (unexpected)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

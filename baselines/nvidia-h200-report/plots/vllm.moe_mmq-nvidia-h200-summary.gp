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
set terminal pngcairo size 1400,922 noenhanced font ',10'
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
set tmargin at screen 0.915401
set bmargin at screen 0.828633
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)   + 64 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.925163 left font ',11'
set xrange [-0.8:46.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "7" 5, "8" 6, "11" 7, "23" 8.8, "24" 9.8, "31" 11.6, "32" 12.6, "37" 14.4, "38" 15.4, "46" 17.2, "47" 18.2, "75" 20, "76" 21, "79" 22, "80" 23, "255" 24.8, "324" 26.6, "325" 27.6, "511" 29.4, "512" 30.4, "696" 32.2, "697" 33.2, "1441" 35, "1442" 36, "1489" 37, "1490" 38, "4047" 39.8, "4048" 40.8, "4095" 41.8, "4096" 42.8, "5957" 44.6, "5958" 45.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 5958' 2, 'chunked: no failure up to 5958' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.748373
set bmargin at screen 0.661605
set label 1 'top_k   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=256)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.758134 left font ',11'
set xrange [-0.8:15.2]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "10" 3.8, "11" 4.8, "12" 5.8, "21" 7.6, "22" 8.6, "23" 9.6, "24" 10.6, "45" 12.4, "46" 13.4, "47" 14.4) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 47' 2, 'chunked: no failure up to 47' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.598698
set bmargin at screen 0.511931
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)   + 6 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.60846 left font ',11'
set xrange [-0.8:19.4]
set yrange [0.4:2.6]
set xtics ("11" 0, "12" 1, "23" 2.8, "24" 3.8, "31" 5.6, "32" 6.6, "46" 8.4, "47" 9.4, "127" 11.2, "255" 13, "256" 14, "310" 15.8, "1303" 17.6, "1304" 18.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 310 (model: 1303)' 2, 'chunked: fails from 310 (model: 1303)' 1) font ',10'
set arrow 1 from 14.9,1.55 to 14.9,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 14.9,0.55 to 14.9,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 5 ps 1.6 lw 2 lc rgb '#8c564b'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.43167
set bmargin at screen 0.344902
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=256 top_k=8)   + 21 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.441432 left font ',11'
set xrange [-0.8:30.8]
set yrange [0.4:2.6]
set xtics ("2" 0, "11" 1.8, "12" 2.8, "15" 3.8, "16" 4.8, "23" 6.6, "24" 7.6, "31" 9.4, "32" 10.4, "82" 12.2, "83" 13.2, "127" 15, "128" 16, "255" 17.8, "256" 18.8, "511" 20.6, "512" 21.6, "1696" 23.4, "1697" 24.4, "3424" 26.2, "3425" 27.2, "4095" 29, "4096" 30) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4096' 2, 'chunked: no failure up to 4096' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.264642
set bmargin at screen 0.177874
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)   + 14 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.274403 left font ',11'
set xrange [-0.8:27.4]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "96" 3.6, "128" 5.4, "160" 7.2, "192" 9, "224" 10.8, "256" 12.6, "512" 14.4, "544" 16.2, "4064" 18, "4096" 19, "8160" 20.8, "8192" 21.8, "32256" 23.6, "32288" 24.6, "32736" 25.6, "32768" 26.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 32256' 2, 'chunked: fails from 32256' 1) font ',10'
set arrow 1 from 22.7,1.55 to 22.7,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 22.7,0.55 to 22.7,1.45 nohead lw 2.5 lc rgb 'black' front
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
set tmargin at screen 0.112798
set bmargin at screen 0.00433839
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt 5 ps 1.6 lw 2 lc rgb '#8c564b' title 'known failure (ledger)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

# SVG (the same commands)
reset
set terminal svg size 1400,922 noenhanced font 'sans,10' background rgb 'white'
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
set tmargin at screen 0.915401
set bmargin at screen 0.828633
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)   + 64 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.925163 left font ',11'
set xrange [-0.8:46.4]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "7" 5, "8" 6, "11" 7, "23" 8.8, "24" 9.8, "31" 11.6, "32" 12.6, "37" 14.4, "38" 15.4, "46" 17.2, "47" 18.2, "75" 20, "76" 21, "79" 22, "80" 23, "255" 24.8, "324" 26.6, "325" 27.6, "511" 29.4, "512" 30.4, "696" 32.2, "697" 33.2, "1441" 35, "1442" 36, "1489" 37, "1490" 38, "4047" 39.8, "4048" 40.8, "4095" 41.8, "4096" 42.8, "5957" 44.6, "5958" 45.6) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 5958' 2, 'chunked: no failure up to 5958' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.748373
set bmargin at screen 0.661605
set label 1 'top_k   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=256)   + 2 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.758134 left font ',11'
set xrange [-0.8:15.2]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "10" 3.8, "11" 4.8, "12" 5.8, "21" 7.6, "22" 8.6, "23" 9.6, "24" 10.6, "45" 12.4, "46" 13.4, "47" 14.4) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 47' 2, 'chunked: no failure up to 47' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 1 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.598698
set bmargin at screen 0.511931
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)   + 6 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.60846 left font ',11'
set xrange [-0.8:19.4]
set yrange [0.4:2.6]
set xtics ("11" 0, "12" 1, "23" 2.8, "24" 3.8, "31" 5.6, "32" 6.6, "46" 8.4, "47" 9.4, "127" 11.2, "255" 13, "256" 14, "310" 15.8, "1303" 17.6, "1304" 18.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 310 (model: 1303)' 2, 'chunked: fails from 310 (model: 1303)' 1) font ',10'
set arrow 1 from 14.9,1.55 to 14.9,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 14.9,0.55 to 14.9,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 2 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 3 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd', \
     here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 4 using 1:2 with points pt 5 ps 1.6 lw 2 lc rgb '#8c564b'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.43167
set bmargin at screen 0.344902
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=256 top_k=8)   + 21 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.441432 left font ',11'
set xrange [-0.8:30.8]
set yrange [0.4:2.6]
set xtics ("2" 0, "11" 1.8, "12" 2.8, "15" 3.8, "16" 4.8, "23" 6.6, "24" 7.6, "31" 9.4, "32" 10.4, "82" 12.2, "83" 13.2, "127" 15, "128" 16, "255" 17.8, "256" 18.8, "511" 20.6, "512" 21.6, "1696" 23.4, "1697" 24.4, "3424" 26.2, "3425" 27.2, "4095" 29, "4096" 30) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4096' 2, 'chunked: no failure up to 4096' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h200-summary.dat' index 5 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.264642
set bmargin at screen 0.177874
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)   + 14 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.274403 left font ',11'
set xrange [-0.8:27.4]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "96" 3.6, "128" 5.4, "160" 7.2, "192" 9, "224" 10.8, "256" 12.6, "512" 14.4, "544" 16.2, "4064" 18, "4096" 19, "8160" 20.8, "8192" 21.8, "32256" 23.6, "32288" 24.6, "32736" 25.6, "32768" 26.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 32256' 2, 'chunked: fails from 32256' 1) font ',10'
set arrow 1 from 22.7,1.55 to 22.7,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 22.7,0.55 to 22.7,1.45 nohead lw 2.5 lc rgb 'black' front
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
set tmargin at screen 0.112798
set bmargin at screen 0.00433839
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt 5 ps 1.6 lw 2 lc rgb '#8c564b' title 'known failure (ledger)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

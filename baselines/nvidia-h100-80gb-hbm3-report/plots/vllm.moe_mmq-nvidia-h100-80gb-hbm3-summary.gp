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
set terminal pngcairo size 1400,944 noenhanced font ',10'
set output here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.png'
set multiplot title 'vllm.moe_mmq on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.917373
set bmargin at screen 0.832627
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)   + 36 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.926907 left font ',11'
set xrange [-0.8:54]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "7" 5, "8" 6, "11" 7, "12" 8, "23" 9.8, "24" 10.8, "31" 12.6, "32" 13.6, "37" 15.4, "38" 16.4, "46" 18.2, "47" 19.2, "75" 21, "76" 22, "79" 23, "80" 24, "255" 25.8, "256" 26.8, "324" 28.6, "325" 29.6, "511" 31.4, "512" 32.4, "696" 34.2, "697" 35.2, "1441" 37, "1442" 38, "1489" 39, "1490" 40, "4047" 41.8, "4048" 42.8, "4095" 43.8, "4096" 44.8, "5957" 46.6, "5958" 47.6, "32719" 49.4, "32720" 50.4, "381300" 52.2, "381301" 53.2) rotate by 90 right font ',9'
set ytics ('upstream: fails from 32720' 2, 'chunked: fails from 381301' 1) font ',10'
set arrow 1 from 49.9,1.55 to 49.9,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 52.7,0.55 to 52.7,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.737288
set bmargin at screen 0.652542
set label 1 'top_k   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=256)' at screen 0.242857, screen 0.746822 left font ',11'
set xrange [-0.8:16.2]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "8" 3.8, "10" 4.8, "11" 5.8, "12" 6.8, "21" 8.6, "22" 9.6, "23" 10.6, "24" 11.6, "45" 13.4, "46" 14.4, "47" 15.4) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 47' 2, 'chunked: no failure up to 47' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.591102
set bmargin at screen 0.506356
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)   + 4 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.600636 left font ',11'
set xrange [-0.8:21.4]
set yrange [0.4:2.6]
set xtics ("11" 0, "12" 1, "23" 2.8, "24" 3.8, "31" 5.6, "32" 6.6, "46" 8.4, "47" 9.4, "127" 11.2, "128" 12.2, "255" 14, "256" 15, "310" 16.8, "311" 17.8, "963" 19.6, "964" 20.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 310 (model: 964)' 2, 'chunked: fails from 310 (model: 964)' 1) font ',10'
set arrow 1 from 15.9,1.55 to 15.9,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 15.9,0.55 to 15.9,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 5 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd', \
     here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 6 using 1:2 with points pt 5 ps 1.6 lw 2 lc rgb '#8c564b'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.436441
set bmargin at screen 0.351695
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=256 top_k=8)   + 9 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.445975 left font ',11'
set xrange [-0.8:33.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "11" 2.8, "12" 3.8, "15" 4.8, "16" 5.8, "23" 7.6, "24" 8.6, "31" 10.4, "32" 11.4, "82" 13.2, "83" 14.2, "127" 16, "128" 17, "255" 18.8, "256" 19.8, "511" 21.6, "512" 22.6, "1408" 24.4, "1696" 26.2, "1697" 27.2, "3424" 29, "3425" 30, "4095" 31.8, "4096" 32.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4096' 2, 'chunked: no failure up to 4096' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 7 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.273305
set bmargin at screen 0.188559
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)   + 3 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.282839 left font ',11'
set xrange [-0.8:26.2]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "96" 3.6, "128" 5.4, "160" 7.2, "192" 9, "224" 10.8, "256" 12.6, "480" 14.4, "512" 16.2, "544" 18, "2816" 19.8, "4064" 21.6, "4096" 22.6, "8160" 24.4, "8192" 25.4) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 8192' 2, 'chunked: no failure up to 8192' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 8 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.133475
set bmargin at screen 0.00423729
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt 5 ps 1.6 lw 2 lc rgb '#8c564b' title 'known failure (ledger)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

# SVG (the same commands)
reset
set terminal svg size 1400,944 noenhanced font 'sans,10' background rgb 'white'
set output here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.svg'
set multiplot title 'vllm.moe_mmq on NVIDIA H100 80GB HBM3: where each variant fails, per axis' font ',14'
set lmargin at screen 0.242857
set rmargin at screen 0.978571
set grid xtics ytics lc rgb '#e4e4e4'
unset key
set mxtics 1

# panel: tokens
unset arrow
unset label
set tmargin at screen 0.917373
set bmargin at screen 0.832627
set label 1 'tokens   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 top_k=8)   + 36 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.926907 left font ',11'
set xrange [-0.8:54]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "5" 3, "6" 4, "7" 5, "8" 6, "11" 7, "12" 8, "23" 9.8, "24" 10.8, "31" 12.6, "32" 13.6, "37" 15.4, "38" 16.4, "46" 18.2, "47" 19.2, "75" 21, "76" 22, "79" 23, "80" 24, "255" 25.8, "256" 26.8, "324" 28.6, "325" 29.6, "511" 31.4, "512" 32.4, "696" 34.2, "697" 35.2, "1441" 37, "1442" 38, "1489" 39, "1490" 40, "4047" 41.8, "4048" 42.8, "4095" 43.8, "4096" 44.8, "5957" 46.6, "5958" 47.6, "32719" 49.4, "32720" 50.4, "381300" 52.2, "381301" 53.2) rotate by 90 right font ',9'
set ytics ('upstream: fails from 32720' 2, 'chunked: fails from 381301' 1) font ',10'
set arrow 1 from 49.9,1.55 to 49.9,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 52.7,0.55 to 52.7,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 0 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 1 using 1:2 with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e', \
     here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 2 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd'

# panel: top_k
unset arrow
unset label
set tmargin at screen 0.737288
set bmargin at screen 0.652542
set label 1 'top_k   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=256)' at screen 0.242857, screen 0.746822 left font ',11'
set xrange [-0.8:16.2]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "3" 2, "8" 3.8, "10" 4.8, "11" 5.8, "12" 6.8, "21" 8.6, "22" 9.6, "23" 10.6, "24" 11.6, "45" 13.4, "46" 14.4, "47" 15.4) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 47' 2, 'chunked: no failure up to 47' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 3 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: experts
unset arrow
unset label
set tmargin at screen 0.591102
set bmargin at screen 0.506356
set label 1 'experts   (other axes: cols=2816 dtype=f32 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)   + 4 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.600636 left font ',11'
set xrange [-0.8:21.4]
set yrange [0.4:2.6]
set xtics ("11" 0, "12" 1, "23" 2.8, "24" 3.8, "31" 5.6, "32" 6.6, "46" 8.4, "47" 9.4, "127" 11.2, "128" 12.2, "255" 14, "256" 15, "310" 16.8, "311" 17.8, "963" 19.6, "964" 20.6) rotate by 90 right font ',9'
set ytics ('upstream: fails from 310 (model: 964)' 2, 'chunked: fails from 310 (model: 964)' 1) font ',10'
set arrow 1 from 15.9,1.55 to 15.9,2.45 nohead lw 2.5 lc rgb 'black' front
set arrow 2 from 15.9,0.55 to 15.9,1.45 nohead lw 2.5 lc rgb 'black' front
plot here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 4 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c', \
     here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 5 using 1:2 with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd', \
     here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 6 using 1:2 with points pt 5 ps 1.6 lw 2 lc rgb '#8c564b'

# panel: rows
unset arrow
unset label
set tmargin at screen 0.436441
set bmargin at screen 0.351695
set label 1 'rows   (other axes: cols=2816 dtype=f32 experts=128 proj=gate_up quant=q4_0 tokens=256 top_k=8)   + 9 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.445975 left font ',11'
set xrange [-0.8:33.6]
set yrange [0.4:2.6]
set xtics ("1" 0, "2" 1, "11" 2.8, "12" 3.8, "15" 4.8, "16" 5.8, "23" 7.6, "24" 8.6, "31" 10.4, "32" 11.4, "82" 13.2, "83" 14.2, "127" 16, "128" 17, "255" 18.8, "256" 19.8, "511" 21.6, "512" 22.6, "1408" 24.4, "1696" 26.2, "1697" 27.2, "3424" 29, "3425" 30, "4095" 31.8, "4096" 32.8) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 4096' 2, 'chunked: no failure up to 4096' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 7 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# panel: cols
unset arrow
unset label
set tmargin at screen 0.273305
set bmargin at screen 0.188559
set label 1 'cols   (other axes: dtype=f32 experts=128 proj=gate_up quant=q4_0 rows=1408 tokens=256 top_k=8)   + 3 other line(s) in report.md, Boundaries' at screen 0.242857, screen 0.282839 left font ',11'
set xrange [-0.8:26.2]
set yrange [0.4:2.6]
set xtics ("32" 0, "64" 1.8, "96" 3.6, "128" 5.4, "160" 7.2, "192" 9, "224" 10.8, "256" 12.6, "480" 14.4, "512" 16.2, "544" 18, "2816" 19.8, "4064" 21.6, "4096" 22.6, "8160" 24.4, "8192" 25.4) rotate by 90 right font ',9'
set ytics ('upstream: no failure up to 8192' 2, 'chunked: no failure up to 8192' 1) font ',10'
plot here.'vllm.moe_mmq-nvidia-h100-80gb-hbm3-summary.dat' index 8 using 1:2 with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c'

# legend
unset arrow
unset label
unset grid
unset border
unset tics
unset xlabel
unset ylabel
set tmargin at screen 0.133475
set bmargin at screen 0.00423729
set xrange [0:1]
set yrange [0:1]
set key center center vertical reverse Left samplen 1.5 spacing 1.3 width 2 box lc rgb '#c0c0c0'
plot NaN notitle, \
     keyentry with points pt 7 ps 1.6 lw 2 lc rgb '#2ca02c' title 'pass', \
     keyentry with points pt 9 ps 1.6 lw 2 lc rgb '#ff7f0e' title 'refused (launch or host check)', \
     keyentry with points pt 13 ps 1.6 lw 2 lc rgb '#9467bd' title 'index wrapped (fault or wrong output)', \
     keyentry with points pt 5 ps 1.6 lw 2 lc rgb '#8c564b' title 'known failure (ledger)', \
     keyentry with points pt '|' ps 1.6 lc rgb 'black' title 'boundary: between last pass and first fail'
unset multiplot

set output

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
set terminal pngcairo size 1000,650 noenhanced font ',10'
set output here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.png'
set title 'llamacpp.mmq on NVIDIA H100 80GB HBM3: first failing tokens for each experts' font ',13'
set xlabel 'experts'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [5.33333:174339]
set xrange [-0.6:32.6]
set xtics ('1 (cols=32,proj=gate_up,rows=1,top_k=1)' 0, '1 (cols=32,proj=gate_up,rows=2048,top_k=1)' 1, '1 (cols=32,proj=gate_up,rows=256,top_k=1)' 2, '1 (cols=32,proj=gate_up,rows=32767,top_k=1)' 3, '1 (cols=32,proj=gate_up,rows=32768,top_k=1)' 4, '2 (cols=14336,proj=down,rows=256,top_k=2)' 5, '2 (cols=32,proj=down,rows=4096,top_k=2)' 6, '2 (cols=32,proj=gate_up,rows=28672,top_k=2)' 7, '2 (cols=7168,proj=gate_up,rows=2048,top_k=1)' 8, '4 (cols=2880,proj=down,rows=1,top_k=4)' 9, '4 (cols=32,proj=down,rows=2880,top_k=4)' 10, '4 (cols=32,proj=gate_up,rows=2048,top_k=1)' 11, '4 (cols=32,proj=gate_up,rows=5760,top_k=4)' 12, '8 (cols=14336,proj=down,rows=4096,top_k=2)' 13, '8 (cols=32,proj=down,rows=2048,top_k=8)' 14, '8 (cols=32,proj=down,rows=2816,top_k=8)' 15, '8 (cols=32,proj=down,rows=4096,top_k=8)' 16, '8 (cols=32,proj=down,rows=7168,top_k=8)' 17, '8 (cols=32,proj=gate_up,rows=1,top_k=8)' 18, '8 (cols=32,proj=gate_up,rows=1408,top_k=8)' 19, '8 (cols=32,proj=gate_up,rows=1536,top_k=8)' 20, '8 (cols=32,proj=gate_up,rows=2048,top_k=1)' 21, '8 (cols=32,proj=gate_up,rows=2048,top_k=8)' 22, '8 (cols=32,proj=gate_up,rows=3072,top_k=8)' 23, '8 (cols=32,proj=gate_up,rows=4095,top_k=8)' 24, '8 (cols=32,proj=gate_up,rows=4096,top_k=8)' 25, '8 (cols=7168,proj=gate_up,rows=2048,top_k=1)' 26, '16 (cols=32,proj=gate_up,rows=2048,top_k=15)' 27, '16 (cols=32,proj=gate_up,rows=2048,top_k=16)' 28, '128 (cols=2048,proj=gate_up,rows=1536,top_k=8)' 29, '256 (cols=32,proj=gate_up,rows=1,top_k=1)' 30, '256 (cols=32,proj=gate_up,rows=2048,top_k=1)' 31, '384 (cols=7168,proj=gate_up,rows=4096,top_k=8)' 32) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: first fail', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: no failure up to the value (> N)', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 2 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'upstream: fails from the first value tested (<= N, another axis)', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 2 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#a0a0a0' notitle, \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 3 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: first fail', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 4 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: no failure up to the value (> N)', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 4 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 5 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'exact: fails from the first value tested (<= N, another axis)', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 5 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#a0a0a0' notitle

set output

# SVG (the same commands)
reset
set terminal svg size 1000,650 noenhanced font 'sans,10' background rgb 'white'
set output here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.svg'
set title 'llamacpp.mmq on NVIDIA H100 80GB HBM3: first failing tokens for each experts' font ',13'
set xlabel 'experts'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [5.33333:174339]
set xrange [-0.6:32.6]
set xtics ('1 (cols=32,proj=gate_up,rows=1,top_k=1)' 0, '1 (cols=32,proj=gate_up,rows=2048,top_k=1)' 1, '1 (cols=32,proj=gate_up,rows=256,top_k=1)' 2, '1 (cols=32,proj=gate_up,rows=32767,top_k=1)' 3, '1 (cols=32,proj=gate_up,rows=32768,top_k=1)' 4, '2 (cols=14336,proj=down,rows=256,top_k=2)' 5, '2 (cols=32,proj=down,rows=4096,top_k=2)' 6, '2 (cols=32,proj=gate_up,rows=28672,top_k=2)' 7, '2 (cols=7168,proj=gate_up,rows=2048,top_k=1)' 8, '4 (cols=2880,proj=down,rows=1,top_k=4)' 9, '4 (cols=32,proj=down,rows=2880,top_k=4)' 10, '4 (cols=32,proj=gate_up,rows=2048,top_k=1)' 11, '4 (cols=32,proj=gate_up,rows=5760,top_k=4)' 12, '8 (cols=14336,proj=down,rows=4096,top_k=2)' 13, '8 (cols=32,proj=down,rows=2048,top_k=8)' 14, '8 (cols=32,proj=down,rows=2816,top_k=8)' 15, '8 (cols=32,proj=down,rows=4096,top_k=8)' 16, '8 (cols=32,proj=down,rows=7168,top_k=8)' 17, '8 (cols=32,proj=gate_up,rows=1,top_k=8)' 18, '8 (cols=32,proj=gate_up,rows=1408,top_k=8)' 19, '8 (cols=32,proj=gate_up,rows=1536,top_k=8)' 20, '8 (cols=32,proj=gate_up,rows=2048,top_k=1)' 21, '8 (cols=32,proj=gate_up,rows=2048,top_k=8)' 22, '8 (cols=32,proj=gate_up,rows=3072,top_k=8)' 23, '8 (cols=32,proj=gate_up,rows=4095,top_k=8)' 24, '8 (cols=32,proj=gate_up,rows=4096,top_k=8)' 25, '8 (cols=7168,proj=gate_up,rows=2048,top_k=1)' 26, '16 (cols=32,proj=gate_up,rows=2048,top_k=15)' 27, '16 (cols=32,proj=gate_up,rows=2048,top_k=16)' 28, '128 (cols=2048,proj=gate_up,rows=1536,top_k=8)' 29, '256 (cols=32,proj=gate_up,rows=1,top_k=1)' 30, '256 (cols=32,proj=gate_up,rows=2048,top_k=1)' 31, '384 (cols=7168,proj=gate_up,rows=4096,top_k=8)' 32) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: first fail', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: no failure up to the value (> N)', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 2 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'upstream: fails from the first value tested (<= N, another axis)', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 2 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#a0a0a0' notitle, \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 3 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: first fail', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 4 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: no failure up to the value (> N)', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 4 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 5 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'exact: fails from the first value tested (<= N, another axis)', \
     here.'llamacpp.mmq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 5 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#a0a0a0' notitle

set output

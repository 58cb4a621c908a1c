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
set output here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.png'
set title 'llamacpp.mmvq on NVIDIA H100 80GB HBM3: first failing tokens for each experts' font ',13'
set xlabel 'experts'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [0.666667:27]
set xrange [-0.6:21.6]
set xtics ('1 (cols=32,proj=gate_up,rows=1,top_k=1)' 0, '1 (cols=3584,proj=gate_up,rows=2048,top_k=1)' 1, '1 (cols=7168,proj=gate_up,rows=1,top_k=1)' 2, '8 (cols=14336,proj=down,rows=4096,top_k=2)' 3, '8 (cols=2048,proj=down,rows=1,top_k=8)' 4, '8 (cols=32,proj=gate_up,rows=2048,top_k=8)' 5, '8 (cols=32,proj=gate_up,rows=4096,top_k=8)' 6, '8 (cols=3584,proj=gate_up,rows=4096,top_k=8)' 7, '8 (cols=4096,proj=gate_up,rows=28672,top_k=2)' 8, '128 (cols=1536,proj=down,rows=4096,top_k=8)' 9, '128 (cols=2048,proj=gate_up,rows=1536,top_k=8)' 10, '128 (cols=2816,proj=gate_up,rows=1408,top_k=8)' 11, '128 (cols=2880,proj=down,rows=2880,top_k=4)' 12, '128 (cols=2880,proj=gate_up,rows=5760,top_k=1)' 13, '128 (cols=4096,proj=gate_up,rows=3072,top_k=8)' 14, '128 (cols=704,proj=down,rows=2816,top_k=8)' 15, '128 (cols=768,proj=down,rows=2048,top_k=8)' 16, '256 (cols=2048,proj=down,rows=7168,top_k=1)' 17, '256 (cols=32,proj=gate_up,rows=1,top_k=1)' 18, '256 (cols=7168,proj=gate_up,rows=4096,top_k=1)' 19, '384 (cols=2048,proj=down,rows=7168,top_k=1)' 20, '384 (cols=7168,proj=gate_up,rows=4096,top_k=1)' 21) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: first fail', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: no failure up to the value (> N)', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 2 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: first fail', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 2 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 3 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: no failure up to the value (> N)', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle

set output

# SVG (the same commands)
reset
set terminal svg size 1000,650 noenhanced font 'sans,10' background rgb 'white'
set output here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.svg'
set title 'llamacpp.mmvq on NVIDIA H100 80GB HBM3: first failing tokens for each experts' font ',13'
set xlabel 'experts'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [0.666667:27]
set xrange [-0.6:21.6]
set xtics ('1 (cols=32,proj=gate_up,rows=1,top_k=1)' 0, '1 (cols=3584,proj=gate_up,rows=2048,top_k=1)' 1, '1 (cols=7168,proj=gate_up,rows=1,top_k=1)' 2, '8 (cols=14336,proj=down,rows=4096,top_k=2)' 3, '8 (cols=2048,proj=down,rows=1,top_k=8)' 4, '8 (cols=32,proj=gate_up,rows=2048,top_k=8)' 5, '8 (cols=32,proj=gate_up,rows=4096,top_k=8)' 6, '8 (cols=3584,proj=gate_up,rows=4096,top_k=8)' 7, '8 (cols=4096,proj=gate_up,rows=28672,top_k=2)' 8, '128 (cols=1536,proj=down,rows=4096,top_k=8)' 9, '128 (cols=2048,proj=gate_up,rows=1536,top_k=8)' 10, '128 (cols=2816,proj=gate_up,rows=1408,top_k=8)' 11, '128 (cols=2880,proj=down,rows=2880,top_k=4)' 12, '128 (cols=2880,proj=gate_up,rows=5760,top_k=1)' 13, '128 (cols=4096,proj=gate_up,rows=3072,top_k=8)' 14, '128 (cols=704,proj=down,rows=2816,top_k=8)' 15, '128 (cols=768,proj=down,rows=2048,top_k=8)' 16, '256 (cols=2048,proj=down,rows=7168,top_k=1)' 17, '256 (cols=32,proj=gate_up,rows=1,top_k=1)' 18, '256 (cols=7168,proj=gate_up,rows=4096,top_k=1)' 19, '384 (cols=2048,proj=down,rows=7168,top_k=1)' 20, '384 (cols=7168,proj=gate_up,rows=4096,top_k=1)' 21) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: first fail', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: no failure up to the value (> N)', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 2 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: first fail', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 2 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 3 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: no failure up to the value (> N)', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-experts.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle

set output

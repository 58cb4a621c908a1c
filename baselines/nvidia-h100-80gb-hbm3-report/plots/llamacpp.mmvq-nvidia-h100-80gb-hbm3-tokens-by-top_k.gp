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
set output here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.png'
set title 'llamacpp.mmvq on NVIDIA H100 80GB HBM3: first failing tokens for each top_k' font ',13'
set xlabel 'top_k'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [0.666667:27]
set xrange [-0.6:21.6]
set xtics ('1 (cols=2048,experts=256,proj=down,rows=7168)' 0, '1 (cols=2048,experts=384,proj=down,rows=7168)' 1, '1 (cols=2880,experts=128,proj=gate_up,rows=5760)' 2, '1 (cols=32,experts=1,proj=gate_up,rows=1)' 3, '1 (cols=32,experts=256,proj=gate_up,rows=1)' 4, '1 (cols=3584,experts=1,proj=gate_up,rows=2048)' 5, '1 (cols=7168,experts=1,proj=gate_up,rows=1)' 6, '1 (cols=7168,experts=256,proj=gate_up,rows=4096)' 7, '1 (cols=7168,experts=384,proj=gate_up,rows=4096)' 8, '2 (cols=14336,experts=8,proj=down,rows=4096)' 9, '2 (cols=4096,experts=8,proj=gate_up,rows=28672)' 10, '4 (cols=2880,experts=128,proj=down,rows=2880)' 11, '8 (cols=1536,experts=128,proj=down,rows=4096)' 12, '8 (cols=2048,experts=128,proj=gate_up,rows=1536)' 13, '8 (cols=2048,experts=8,proj=down,rows=1)' 14, '8 (cols=2816,experts=128,proj=gate_up,rows=1408)' 15, '8 (cols=32,experts=8,proj=gate_up,rows=2048)' 16, '8 (cols=32,experts=8,proj=gate_up,rows=4096)' 17, '8 (cols=3584,experts=8,proj=gate_up,rows=4096)' 18, '8 (cols=4096,experts=128,proj=gate_up,rows=3072)' 19, '8 (cols=704,experts=128,proj=down,rows=2816)' 20, '8 (cols=768,experts=128,proj=down,rows=2048)' 21) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: first fail', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: no failure up to the value (> N)', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: first fail', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 3 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: no failure up to the value (> N)', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle

set output

# SVG (the same commands)
reset
set terminal svg size 1000,650 noenhanced font 'sans,10' background rgb 'white'
set output here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.svg'
set title 'llamacpp.mmvq on NVIDIA H100 80GB HBM3: first failing tokens for each top_k' font ',13'
set xlabel 'top_k'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [0.666667:27]
set xrange [-0.6:21.6]
set xtics ('1 (cols=2048,experts=256,proj=down,rows=7168)' 0, '1 (cols=2048,experts=384,proj=down,rows=7168)' 1, '1 (cols=2880,experts=128,proj=gate_up,rows=5760)' 2, '1 (cols=32,experts=1,proj=gate_up,rows=1)' 3, '1 (cols=32,experts=256,proj=gate_up,rows=1)' 4, '1 (cols=3584,experts=1,proj=gate_up,rows=2048)' 5, '1 (cols=7168,experts=1,proj=gate_up,rows=1)' 6, '1 (cols=7168,experts=256,proj=gate_up,rows=4096)' 7, '1 (cols=7168,experts=384,proj=gate_up,rows=4096)' 8, '2 (cols=14336,experts=8,proj=down,rows=4096)' 9, '2 (cols=4096,experts=8,proj=gate_up,rows=28672)' 10, '4 (cols=2880,experts=128,proj=down,rows=2880)' 11, '8 (cols=1536,experts=128,proj=down,rows=4096)' 12, '8 (cols=2048,experts=128,proj=gate_up,rows=1536)' 13, '8 (cols=2048,experts=8,proj=down,rows=1)' 14, '8 (cols=2816,experts=128,proj=gate_up,rows=1408)' 15, '8 (cols=32,experts=8,proj=gate_up,rows=2048)' 16, '8 (cols=32,experts=8,proj=gate_up,rows=4096)' 17, '8 (cols=3584,experts=8,proj=gate_up,rows=4096)' 18, '8 (cols=4096,experts=128,proj=gate_up,rows=3072)' 19, '8 (cols=704,experts=128,proj=down,rows=2816)' 20, '8 (cols=768,experts=128,proj=down,rows=2048)' 21) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: first fail', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: no failure up to the value (> N)', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: first fail', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 3 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'exact: no failure up to the value (> N)', \
     here.'llamacpp.mmvq-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle

set output

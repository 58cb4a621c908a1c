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
set output here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.png'
set title 'mlx.gather_qmm on NVIDIA H100 80GB HBM3: first failing tokens for each top_k' font ',13'
set xlabel 'top_k'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [0.5:3.14573e+06]
set xrange [-0.6:23.6]
set xtics ('2 (cols=14336,experts=2,rows=128)' 0, '2 (cols=14336,experts=8,rows=4096)' 1, '2 (cols=4096,experts=8,rows=28672)' 2, '2 (cols=64,experts=2,rows=28672)' 3, '2 (cols=64,experts=2,rows=4096)' 4, '4 (cols=2880,experts=128,rows=5760)' 5, '4 (cols=64,experts=4,rows=128)' 6, '4 (cols=64,experts=4,rows=5760)' 7, '8 (cols=1536,experts=128,rows=4096)' 8, '8 (cols=2048,experts=128,rows=1536)' 9, '8 (cols=2048,experts=256,rows=7168)' 10, '8 (cols=2048,experts=384,rows=7168)' 11, '8 (cols=2048,experts=8,rows=128)' 12, '8 (cols=2816,experts=128,rows=1408)' 13, '8 (cols=4096,experts=128,rows=3072)' 14, '8 (cols=4096,experts=128,rows=768)' 15, '8 (cols=4096,experts=8,rows=128)' 16, '8 (cols=64,experts=128,rows=128)' 17, '8 (cols=64,experts=8,rows=128)' 18, '8 (cols=64,experts=8,rows=768)' 19, '8 (cols=704,experts=128,rows=2816)' 20, '8 (cols=7168,experts=256,rows=4096)' 21, '8 (cols=7168,experts=384,rows=4096)' 22, '8 (cols=768,experts=128,rows=2048)' 23) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: first fail', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: no failure up to the value (> N)', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'upstream: fails from the first value tested (<= N, another axis)', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#a0a0a0' notitle, \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 3 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'chunked: first fail', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 4 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'chunked: no failure up to the value (> N)', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 4 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 5 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'chunked: fails from the first value tested (<= N, another axis)', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 5 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#a0a0a0' notitle

set output

# SVG (the same commands)
reset
set terminal svg size 1000,650 noenhanced font 'sans,10' background rgb 'white'
set output here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.svg'
set title 'mlx.gather_qmm on NVIDIA H100 80GB HBM3: first failing tokens for each top_k' font ',13'
set xlabel 'top_k'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [0.5:3.14573e+06]
set xrange [-0.6:23.6]
set xtics ('2 (cols=14336,experts=2,rows=128)' 0, '2 (cols=14336,experts=8,rows=4096)' 1, '2 (cols=4096,experts=8,rows=28672)' 2, '2 (cols=64,experts=2,rows=28672)' 3, '2 (cols=64,experts=2,rows=4096)' 4, '4 (cols=2880,experts=128,rows=5760)' 5, '4 (cols=64,experts=4,rows=128)' 6, '4 (cols=64,experts=4,rows=5760)' 7, '8 (cols=1536,experts=128,rows=4096)' 8, '8 (cols=2048,experts=128,rows=1536)' 9, '8 (cols=2048,experts=256,rows=7168)' 10, '8 (cols=2048,experts=384,rows=7168)' 11, '8 (cols=2048,experts=8,rows=128)' 12, '8 (cols=2816,experts=128,rows=1408)' 13, '8 (cols=4096,experts=128,rows=3072)' 14, '8 (cols=4096,experts=128,rows=768)' 15, '8 (cols=4096,experts=8,rows=128)' 16, '8 (cols=64,experts=128,rows=128)' 17, '8 (cols=64,experts=8,rows=128)' 18, '8 (cols=64,experts=8,rows=768)' 19, '8 (cols=704,experts=128,rows=2816)' 20, '8 (cols=7168,experts=256,rows=4096)' 21, '8 (cols=7168,experts=384,rows=4096)' 22, '8 (cols=768,experts=128,rows=2048)' 23) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: first fail', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: no failure up to the value (> N)', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'upstream: fails from the first value tested (<= N, another axis)', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#a0a0a0' notitle, \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 3 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'chunked: first fail', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 4 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'chunked: no failure up to the value (> N)', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 4 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 5 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'chunked: fails from the first value tested (<= N, another axis)', \
     here.'mlx.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 5 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#a0a0a0' notitle

set output

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
set output here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.png'
set title 'mlx.qmm on NVIDIA H100 80GB HBM3: first failing tokens for each vocab' font ',13'
set xlabel 'vocab'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [1.33333:3.14573e+06]
set xrange [-0.6:20.6]
set xtics ('128 (cols=128)' 0, '128 (cols=16384)' 1, '128 (cols=4096)' 2, '32000 (cols=128)' 3, '32000 (cols=4096)' 4, '64128 (cols=128)' 5, '128256 (cols=128)' 6, '128256 (cols=16384)' 7, '128256 (cols=4096)' 8, '128256 (cols=8192)' 9, '129280 (cols=128)' 10, '129280 (cols=7168)' 11, '151936 (cols=128)' 12, '151936 (cols=2048)' 13, '151936 (cols=4096)' 14, '163840 (cols=128)' 15, '163840 (cols=7168)' 16, '201088 (cols=128)' 17, '201088 (cols=2880)' 18, '262144 (cols=128)' 19, '262144 (cols=2816)' 20) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: first fail', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: no failure up to the value (> N)', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 2 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'upstream: fails from the first value tested (<= N, another axis)', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 2 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#a0a0a0' notitle, \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 3 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'chunked: first fail', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 4 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'chunked: no failure up to the value (> N)', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 4 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 5 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'chunked: fails from the first value tested (<= N, another axis)', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 5 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#a0a0a0' notitle

set output

# SVG (the same commands)
reset
set terminal svg size 1000,650 noenhanced font 'sans,10' background rgb 'white'
set output here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.svg'
set title 'mlx.qmm on NVIDIA H100 80GB HBM3: first failing tokens for each vocab' font ',13'
set xlabel 'vocab'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [1.33333:3.14573e+06]
set xrange [-0.6:20.6]
set xtics ('128 (cols=128)' 0, '128 (cols=16384)' 1, '128 (cols=4096)' 2, '32000 (cols=128)' 3, '32000 (cols=4096)' 4, '64128 (cols=128)' 5, '128256 (cols=128)' 6, '128256 (cols=16384)' 7, '128256 (cols=4096)' 8, '128256 (cols=8192)' 9, '129280 (cols=128)' 10, '129280 (cols=7168)' 11, '151936 (cols=128)' 12, '151936 (cols=2048)' 13, '151936 (cols=4096)' 14, '163840 (cols=128)' 15, '163840 (cols=7168)' 16, '201088 (cols=128)' 17, '201088 (cols=2880)' 18, '262144 (cols=128)' 19, '262144 (cols=2816)' 20) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: first fail', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'upstream: no failure up to the value (> N)', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 2 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'upstream: fails from the first value tested (<= N, another axis)', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 2 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#a0a0a0' notitle, \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 3 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'chunked: first fail', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 4 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'chunked: no failure up to the value (> N)', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 4 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 5 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'chunked: fails from the first value tested (<= N, another axis)', \
     here.'mlx.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 5 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#a0a0a0' notitle

set output

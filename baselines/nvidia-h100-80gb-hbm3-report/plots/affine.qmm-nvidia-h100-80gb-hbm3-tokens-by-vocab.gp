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
set output here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.png'
set title 'affine.qmm on NVIDIA H100 80GB HBM3: first failing tokens for each vocab' font ',13'
set xlabel 'vocab'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [1.33333:6.29146e+06]
set xrange [-0.6:33.6]
set xtics ('128 (cols=16384)' 0, '128 (cols=2048)' 1, '128 (cols=2816)' 2, '128 (cols=2880)' 3, '128 (cols=4096)' 4, '128 (cols=64)' 5, '128 (cols=7168)' 6, '128 (cols=8192)' 7, '32000 (cols=4096)' 8, '32000 (cols=64)' 9, '64128 (cols=64)' 10, '128256 (cols=16384)' 11, '128256 (cols=4096)' 12, '128256 (cols=64)' 13, '128256 (cols=8192)' 14, '129280 (cols=64)' 15, '129280 (cols=7168)' 16, '151936 (cols=2048)' 17, '151936 (cols=4096)' 18, '151936 (cols=64)' 19, '163840 (cols=64)' 20, '163840 (cols=7168)' 21, '201088 (cols=2880)' 22, '201088 (cols=64)' 23, '262144 (cols=2816)' 24, '262144 (cols=64)' 25, '524160 (cols=4096)' 26, '524288 (cols=4096)' 27, '1048448 (cols=4096)' 28, '1048576 (cols=4096)' 29, '2097024 (cols=4096)' 30, '2097152 (cols=4096)' 31, '4194176 (cols=4096)' 32, '4194304 (cols=4096)' 33) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'legacy: first fail', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'legacy: no failure up to the value (> N)', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 2 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'hopper: no failure up to the value (> N)', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 2 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 3 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#1f77b4' title 'fixed: no failure up to the value (> N)', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#1f77b4' notitle

set output

# SVG (the same commands)
reset
set terminal svg size 1000,650 noenhanced font 'sans,10' background rgb 'white'
set output here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.svg'
set title 'affine.qmm on NVIDIA H100 80GB HBM3: first failing tokens for each vocab' font ',13'
set xlabel 'vocab'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [1.33333:6.29146e+06]
set xrange [-0.6:33.6]
set xtics ('128 (cols=16384)' 0, '128 (cols=2048)' 1, '128 (cols=2816)' 2, '128 (cols=2880)' 3, '128 (cols=4096)' 4, '128 (cols=64)' 5, '128 (cols=7168)' 6, '128 (cols=8192)' 7, '32000 (cols=4096)' 8, '32000 (cols=64)' 9, '64128 (cols=64)' 10, '128256 (cols=16384)' 11, '128256 (cols=4096)' 12, '128256 (cols=64)' 13, '128256 (cols=8192)' 14, '129280 (cols=64)' 15, '129280 (cols=7168)' 16, '151936 (cols=2048)' 17, '151936 (cols=4096)' 18, '151936 (cols=64)' 19, '163840 (cols=64)' 20, '163840 (cols=7168)' 21, '201088 (cols=2880)' 22, '201088 (cols=64)' 23, '262144 (cols=2816)' 24, '262144 (cols=64)' 25, '524160 (cols=4096)' 26, '524288 (cols=4096)' 27, '1048448 (cols=4096)' 28, '1048576 (cols=4096)' 29, '2097024 (cols=4096)' 30, '2097152 (cols=4096)' 31, '4194176 (cols=4096)' 32, '4194304 (cols=4096)' 33) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'legacy: first fail', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'legacy: no failure up to the value (> N)', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 2 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'hopper: no failure up to the value (> N)', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 2 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 3 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#1f77b4' title 'fixed: no failure up to the value (> N)', \
     here.'affine.qmm-nvidia-h100-80gb-hbm3-tokens-by-vocab.dat' index 3 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#1f77b4' notitle

set output

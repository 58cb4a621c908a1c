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
set output here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.png'
set title 'affine.gather_qmm on NVIDIA H100 80GB HBM3: first failing tokens for each top_k' font ',13'
set xlabel 'top_k'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [0.666667:3.14573e+06]
set xrange [-0.6:28.6]
set xtics ('2 (cols=14336,experts=2,rows=128)' 0, '2 (cols=14336,experts=2,rows=4096)' 1, '2 (cols=14336,experts=8,rows=4096)' 2, '2 (cols=4096,experts=8,rows=28672)' 3, '2 (cols=64,experts=2,rows=28672)' 4, '4 (cols=2880,experts=4,rows=128)' 5, '4 (cols=64,experts=4,rows=128)' 6, '4 (cols=64,experts=4,rows=5760)' 7, '8 (cols=2048,experts=128,rows=1536)' 8, '8 (cols=2048,experts=256,rows=7168)' 9, '8 (cols=2048,experts=384,rows=7168)' 10, '8 (cols=2048,experts=8,rows=128)' 11, '8 (cols=2816,experts=128,rows=1408)' 12, '8 (cols=2816,experts=8,rows=128)' 13, '8 (cols=4096,experts=128,rows=3072)' 14, '8 (cols=4096,experts=128,rows=768)' 15, '8 (cols=4096,experts=8,rows=128)' 16, '8 (cols=4096,experts=8,rows=768)' 17, '8 (cols=64,experts=128,rows=128)' 18, '8 (cols=64,experts=8,rows=128)' 19, '8 (cols=64,experts=8,rows=32640)' 20, '8 (cols=64,experts=8,rows=32768)' 21, '8 (cols=64,experts=8,rows=4096)' 22, '8 (cols=64,experts=8,rows=768)' 23, '8 (cols=704,experts=128,rows=2816)' 24, '8 (cols=7168,experts=256,rows=4096)' 25, '8 (cols=7168,experts=384,rows=4096)' 26, '8 (cols=7168,experts=8,rows=128)' 27, '8 (cols=768,experts=128,rows=2048)' 28) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'fixed: no failure up to the value (> N)', \
     here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'legacy: first fail', \
     here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'legacy: no failure up to the value (> N)', \
     here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle

set output

# SVG (the same commands)
reset
set terminal svg size 1000,650 noenhanced font 'sans,10' background rgb 'white'
set output here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.svg'
set title 'affine.gather_qmm on NVIDIA H100 80GB HBM3: first failing tokens for each top_k' font ',13'
set xlabel 'top_k'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [0.666667:3.14573e+06]
set xrange [-0.6:28.6]
set xtics ('2 (cols=14336,experts=2,rows=128)' 0, '2 (cols=14336,experts=2,rows=4096)' 1, '2 (cols=14336,experts=8,rows=4096)' 2, '2 (cols=4096,experts=8,rows=28672)' 3, '2 (cols=64,experts=2,rows=28672)' 4, '4 (cols=2880,experts=4,rows=128)' 5, '4 (cols=64,experts=4,rows=128)' 6, '4 (cols=64,experts=4,rows=5760)' 7, '8 (cols=2048,experts=128,rows=1536)' 8, '8 (cols=2048,experts=256,rows=7168)' 9, '8 (cols=2048,experts=384,rows=7168)' 10, '8 (cols=2048,experts=8,rows=128)' 11, '8 (cols=2816,experts=128,rows=1408)' 12, '8 (cols=2816,experts=8,rows=128)' 13, '8 (cols=4096,experts=128,rows=3072)' 14, '8 (cols=4096,experts=128,rows=768)' 15, '8 (cols=4096,experts=8,rows=128)' 16, '8 (cols=4096,experts=8,rows=768)' 17, '8 (cols=64,experts=128,rows=128)' 18, '8 (cols=64,experts=8,rows=128)' 19, '8 (cols=64,experts=8,rows=32640)' 20, '8 (cols=64,experts=8,rows=32768)' 21, '8 (cols=64,experts=8,rows=4096)' 22, '8 (cols=64,experts=8,rows=768)' 23, '8 (cols=704,experts=128,rows=2816)' 24, '8 (cols=7168,experts=256,rows=4096)' 25, '8 (cols=7168,experts=384,rows=4096)' 26, '8 (cols=7168,experts=8,rows=128)' 27, '8 (cols=768,experts=128,rows=2048)' 28) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'fixed: no failure up to the value (> N)', \
     here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#2ca02c' title 'legacy: first fail', \
     here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 1 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'legacy: no failure up to the value (> N)', \
     here.'affine.gather_qmm-nvidia-h100-80gb-hbm3-tokens-by-top_k.dat' index 2 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#2ca02c' notitle

set output

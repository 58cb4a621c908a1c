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
set terminal pngcairo size 1000,650 noenhanced font ',10'
set output here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.png'
set title 'gguf.moe_vec on NVIDIA H200: first failing tokens for each top_k' font ',13'
set xlabel 'top_k'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [9.66667:6.29146e+06]
set xrange [-0.6:60.6]
set xtics ('1 (cols=2048,experts=1,proj=gate_up,rows=1)' 0, '1 (cols=2816,experts=1,proj=gate_up,rows=1)' 1, '1 (cols=2880,experts=1,proj=gate_up,rows=1)' 2, '1 (cols=32,experts=1,proj=down,rows=1)' 3, '1 (cols=32,experts=1,proj=gate_up,rows=1)' 4, '1 (cols=32,experts=1,proj=gate_up,rows=1408)' 5, '1 (cols=32,experts=128,proj=gate_up,rows=1)' 6, '1 (cols=4096,experts=1,proj=gate_up,rows=1)' 7, '1 (cols=7168,experts=1,proj=gate_up,rows=1)' 8, '2 (cols=14336,experts=2,proj=down,rows=4096)' 9, '2 (cols=14336,experts=8,proj=down,rows=4096)' 10, '2 (cols=32,experts=2,proj=down,rows=1)' 11, '2 (cols=32,experts=2,proj=down,rows=4096)' 12, '2 (cols=32,experts=2,proj=gate_up,rows=1)' 13, '2 (cols=4096,experts=8,proj=gate_up,rows=28672)' 14, '4 (cols=2048,experts=4,proj=gate_up,rows=1)' 15, '4 (cols=2816,experts=4,proj=gate_up,rows=1)' 16, '4 (cols=2880,experts=128,proj=down,rows=2880)' 17, '4 (cols=2880,experts=4,proj=down,rows=1)' 18, '4 (cols=2880,experts=4,proj=down,rows=2880)' 19, '4 (cols=2880,experts=4,proj=gate_up,rows=1)' 20, '4 (cols=32,experts=4,proj=down,rows=1)' 21, '4 (cols=32,experts=4,proj=gate_up,rows=1)' 22, '4 (cols=32,experts=4,proj=gate_up,rows=1440)' 23, '4 (cols=32,experts=4,proj=gate_up,rows=2880)' 24, '4 (cols=32,experts=4,proj=gate_up,rows=360)' 25, '4 (cols=32,experts=4,proj=gate_up,rows=5760)' 26, '8 (cols=1536,experts=128,proj=down,rows=4096)' 27, '8 (cols=1536,experts=8,proj=down,rows=1)' 28, '8 (cols=1536,experts=8,proj=down,rows=4096)' 29, '8 (cols=2048,experts=128,proj=gate_up,rows=1536)' 30, '8 (cols=2048,experts=8,proj=down,rows=1)' 31, '8 (cols=2048,experts=8,proj=down,rows=7168)' 32, '8 (cols=2048,experts=8,proj=gate_up,rows=1)' 33, '8 (cols=2816,experts=128,proj=gate_up,rows=1408)' 34, '8 (cols=2816,experts=8,proj=gate_up,rows=1)' 35, '8 (cols=32,experts=128,proj=gate_up,rows=1)' 36, '8 (cols=32,experts=8,proj=down,rows=1)' 37, '8 (cols=32,experts=8,proj=down,rows=1792)' 38, '8 (cols=32,experts=8,proj=down,rows=3584)' 39, '8 (cols=32,experts=8,proj=down,rows=7168)' 40, '8 (cols=32,experts=8,proj=gate_up,rows=1)' 41, '8 (cols=32,experts=8,proj=gate_up,rows=1024)' 42, '8 (cols=32,experts=8,proj=gate_up,rows=1408)' 43, '8 (cols=32,experts=8,proj=gate_up,rows=1536)' 44, '8 (cols=32,experts=8,proj=gate_up,rows=2048)' 45, '8 (cols=32,experts=8,proj=gate_up,rows=256)' 46, '8 (cols=32,experts=8,proj=gate_up,rows=3072)' 47, '8 (cols=32,experts=8,proj=gate_up,rows=32767)' 48, '8 (cols=32,experts=8,proj=gate_up,rows=32768)' 49, '8 (cols=32,experts=8,proj=gate_up,rows=4096)' 50, '8 (cols=4096,experts=128,proj=gate_up,rows=3072)' 51, '8 (cols=4096,experts=8,proj=gate_up,rows=1)' 52, '8 (cols=704,experts=128,proj=down,rows=2816)' 53, '8 (cols=704,experts=8,proj=down,rows=1)' 54, '8 (cols=704,experts=8,proj=down,rows=2816)' 55, '8 (cols=7168,experts=256,proj=gate_up,rows=4096)' 56, '8 (cols=7168,experts=8,proj=gate_up,rows=1)' 57, '8 (cols=768,experts=128,proj=down,rows=2048)' 58, '8 (cols=768,experts=8,proj=down,rows=1)' 59, '8 (cols=768,experts=8,proj=down,rows=2048)' 60) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'legacy: first fail', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'legacy: no failure up to the value (> N)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 2 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'legacy: fails from the first value tested (<= N, another axis)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 2 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#a0a0a0' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 3 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'fixed: no failure up to the value (> N)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 3 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 4 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#1f77b4' title 'zchunk: no failure up to the value (> N)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 4 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#1f77b4' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 5 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#ff7f0e' title 'rows_x: no failure up to the value (> N)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 5 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#ff7f0e' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 6 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#9467bd' title 'pairs_x: no failure up to the value (> N)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 6 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#9467bd' notitle

set output

# SVG (the same commands)
reset
set terminal svg size 1000,650 noenhanced font 'sans,10' background rgb 'white'
set output here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.svg'
set title 'gguf.moe_vec on NVIDIA H200: first failing tokens for each top_k' font ',13'
set xlabel 'top_k'
set ylabel 'first failing tokens (log)'
set logscale y
set yrange [9.66667:6.29146e+06]
set xrange [-0.6:60.6]
set xtics ('1 (cols=2048,experts=1,proj=gate_up,rows=1)' 0, '1 (cols=2816,experts=1,proj=gate_up,rows=1)' 1, '1 (cols=2880,experts=1,proj=gate_up,rows=1)' 2, '1 (cols=32,experts=1,proj=down,rows=1)' 3, '1 (cols=32,experts=1,proj=gate_up,rows=1)' 4, '1 (cols=32,experts=1,proj=gate_up,rows=1408)' 5, '1 (cols=32,experts=128,proj=gate_up,rows=1)' 6, '1 (cols=4096,experts=1,proj=gate_up,rows=1)' 7, '1 (cols=7168,experts=1,proj=gate_up,rows=1)' 8, '2 (cols=14336,experts=2,proj=down,rows=4096)' 9, '2 (cols=14336,experts=8,proj=down,rows=4096)' 10, '2 (cols=32,experts=2,proj=down,rows=1)' 11, '2 (cols=32,experts=2,proj=down,rows=4096)' 12, '2 (cols=32,experts=2,proj=gate_up,rows=1)' 13, '2 (cols=4096,experts=8,proj=gate_up,rows=28672)' 14, '4 (cols=2048,experts=4,proj=gate_up,rows=1)' 15, '4 (cols=2816,experts=4,proj=gate_up,rows=1)' 16, '4 (cols=2880,experts=128,proj=down,rows=2880)' 17, '4 (cols=2880,experts=4,proj=down,rows=1)' 18, '4 (cols=2880,experts=4,proj=down,rows=2880)' 19, '4 (cols=2880,experts=4,proj=gate_up,rows=1)' 20, '4 (cols=32,experts=4,proj=down,rows=1)' 21, '4 (cols=32,experts=4,proj=gate_up,rows=1)' 22, '4 (cols=32,experts=4,proj=gate_up,rows=1440)' 23, '4 (cols=32,experts=4,proj=gate_up,rows=2880)' 24, '4 (cols=32,experts=4,proj=gate_up,rows=360)' 25, '4 (cols=32,experts=4,proj=gate_up,rows=5760)' 26, '8 (cols=1536,experts=128,proj=down,rows=4096)' 27, '8 (cols=1536,experts=8,proj=down,rows=1)' 28, '8 (cols=1536,experts=8,proj=down,rows=4096)' 29, '8 (cols=2048,experts=128,proj=gate_up,rows=1536)' 30, '8 (cols=2048,experts=8,proj=down,rows=1)' 31, '8 (cols=2048,experts=8,proj=down,rows=7168)' 32, '8 (cols=2048,experts=8,proj=gate_up,rows=1)' 33, '8 (cols=2816,experts=128,proj=gate_up,rows=1408)' 34, '8 (cols=2816,experts=8,proj=gate_up,rows=1)' 35, '8 (cols=32,experts=128,proj=gate_up,rows=1)' 36, '8 (cols=32,experts=8,proj=down,rows=1)' 37, '8 (cols=32,experts=8,proj=down,rows=1792)' 38, '8 (cols=32,experts=8,proj=down,rows=3584)' 39, '8 (cols=32,experts=8,proj=down,rows=7168)' 40, '8 (cols=32,experts=8,proj=gate_up,rows=1)' 41, '8 (cols=32,experts=8,proj=gate_up,rows=1024)' 42, '8 (cols=32,experts=8,proj=gate_up,rows=1408)' 43, '8 (cols=32,experts=8,proj=gate_up,rows=1536)' 44, '8 (cols=32,experts=8,proj=gate_up,rows=2048)' 45, '8 (cols=32,experts=8,proj=gate_up,rows=256)' 46, '8 (cols=32,experts=8,proj=gate_up,rows=3072)' 47, '8 (cols=32,experts=8,proj=gate_up,rows=32767)' 48, '8 (cols=32,experts=8,proj=gate_up,rows=32768)' 49, '8 (cols=32,experts=8,proj=gate_up,rows=4096)' 50, '8 (cols=4096,experts=128,proj=gate_up,rows=3072)' 51, '8 (cols=4096,experts=8,proj=gate_up,rows=1)' 52, '8 (cols=704,experts=128,proj=down,rows=2816)' 53, '8 (cols=704,experts=8,proj=down,rows=1)' 54, '8 (cols=704,experts=8,proj=down,rows=2816)' 55, '8 (cols=7168,experts=256,proj=gate_up,rows=4096)' 56, '8 (cols=7168,experts=8,proj=gate_up,rows=1)' 57, '8 (cols=768,experts=128,proj=down,rows=2048)' 58, '8 (cols=768,experts=8,proj=down,rows=1)' 59, '8 (cols=768,experts=8,proj=down,rows=2048)' 60) rotate by 20 right font ',10'
set grid ytics
set lmargin 12
set rmargin 4
set bmargin 9
set key outside below center horizontal reverse Left maxcols 2 box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 0 using 1:2 with linespoints pt 7 ps 1.8 lw 2 lc rgb '#d62728' title 'legacy: first fail', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 0 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 1 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#d62728' title 'legacy: no failure up to the value (> N)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 1 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#d62728' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 2 using 1:2 with points pt 2 ps 1.8 lw 2 lc rgb '#a0a0a0' title 'legacy: fails from the first value tested (<= N, another axis)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 2 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#a0a0a0' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 3 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#2ca02c' title 'fixed: no failure up to the value (> N)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 3 using 1:2:3 with labels center offset 0,1.1 font ',9' tc rgb '#2ca02c' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 4 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#1f77b4' title 'zchunk: no failure up to the value (> N)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 4 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#1f77b4' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 5 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#ff7f0e' title 'rows_x: no failure up to the value (> N)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 5 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#ff7f0e' notitle, \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 6 using 1:2 with points pt 8 ps 1.8 lw 2 lc rgb '#9467bd' title 'pairs_x: no failure up to the value (> N)', \
     here.'gguf.moe_vec-nvidia-h200-tokens-by-top_k.dat' index 6 using 1:2:3 with labels center offset 0,-1.1 font ',9' tc rgb '#9467bd' notitle

set output

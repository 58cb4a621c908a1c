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
set terminal pngcairo size 1300,820 noenhanced font ',10'
set output here.'moe_vec-nvidia-h200-timing.png'
set multiplot title 'moe_vec on NVIDIA H200: median time by tokens' font ',14'
set lmargin at screen 0.09
set rmargin at screen 0.66
set grid
set xrange [8189:8194]
set format x '%.0f'

# times
set tmargin at screen 0.90
set bmargin at screen 0.42
set logscale y
set ylabel 'ms per call (median; bars min..max)'
set format x ''
set key at screen 0.68, screen 0.90 left top reverse Left box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'moe_vec-nvidia-h200-timing.dat' index 0 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#1f77b4' title 'gguf.moe_vec fixed', \
     here.'moe_vec-nvidia-h200-timing.dat' index 1 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#d62728' title 'gguf.moe_vec legacy', \
     here.'moe_vec-nvidia-h200-timing.dat' index 2 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#2ca02c' title 'gguf.moe_vec zchunk', \
     here.'moe_vec-nvidia-h200-timing.dat' index 3 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#ff7f0e' title 'gguf.moe_vec rows_x', \
     here.'moe_vec-nvidia-h200-timing.dat' index 4 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#9467bd' title 'gguf.moe_vec pairs_x', \
     here.'moe_vec-nvidia-h200-timing.dat' index 5 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#8c564b' title 'vllm.moe_vec upstream', \
     here.'moe_vec-nvidia-h200-timing.dat' index 6 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#e377c2' title 'vllm.moe_vec chunked'

# ratios
set tmargin at screen 0.38
set bmargin at screen 0.10
unset logscale y
set format x '%.0f'
set xlabel 'tokens'
set ylabel 'ratio of medians'
set yrange [0.863427:1.02]
set key at screen 0.68, screen 0.38 left top reverse Left box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot 1 with lines lc rgb 'black' lw 1 notitle, here.'moe_vec-nvidia-h200-timing.dat' index 7 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#1f77b4' title 'gguf.moe_vec fixed / gguf.moe_vec legacy', \
     here.'moe_vec-nvidia-h200-timing.dat' index 8 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#2ca02c' title 'gguf.moe_vec zchunk / gguf.moe_vec legacy', \
     here.'moe_vec-nvidia-h200-timing.dat' index 9 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#ff7f0e' title 'gguf.moe_vec rows_x / gguf.moe_vec legacy', \
     here.'moe_vec-nvidia-h200-timing.dat' index 10 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#9467bd' title 'gguf.moe_vec pairs_x / gguf.moe_vec legacy', \
     here.'moe_vec-nvidia-h200-timing.dat' index 11 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#e377c2' title 'vllm.moe_vec chunked / vllm.moe_vec upstream', \
     here.'moe_vec-nvidia-h200-timing.dat' index 12 using 1:2 with linespoints pt 9 ps 1.2 lw 2 dt 2 lc rgb '#1f77b4' title 'gguf.moe_vec fixed / vllm.moe_vec upstream'
unset multiplot

set output

# SVG (the same commands)
reset
set terminal svg size 1300,820 noenhanced font 'sans,10' background rgb 'white'
set output here.'moe_vec-nvidia-h200-timing.svg'
set multiplot title 'moe_vec on NVIDIA H200: median time by tokens' font ',14'
set lmargin at screen 0.09
set rmargin at screen 0.66
set grid
set xrange [8189:8194]
set format x '%.0f'

# times
set tmargin at screen 0.90
set bmargin at screen 0.42
set logscale y
set ylabel 'ms per call (median; bars min..max)'
set format x ''
set key at screen 0.68, screen 0.90 left top reverse Left box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'moe_vec-nvidia-h200-timing.dat' index 0 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#1f77b4' title 'gguf.moe_vec fixed', \
     here.'moe_vec-nvidia-h200-timing.dat' index 1 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#d62728' title 'gguf.moe_vec legacy', \
     here.'moe_vec-nvidia-h200-timing.dat' index 2 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#2ca02c' title 'gguf.moe_vec zchunk', \
     here.'moe_vec-nvidia-h200-timing.dat' index 3 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#ff7f0e' title 'gguf.moe_vec rows_x', \
     here.'moe_vec-nvidia-h200-timing.dat' index 4 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#9467bd' title 'gguf.moe_vec pairs_x', \
     here.'moe_vec-nvidia-h200-timing.dat' index 5 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#8c564b' title 'vllm.moe_vec upstream', \
     here.'moe_vec-nvidia-h200-timing.dat' index 6 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#e377c2' title 'vllm.moe_vec chunked'

# ratios
set tmargin at screen 0.38
set bmargin at screen 0.10
unset logscale y
set format x '%.0f'
set xlabel 'tokens'
set ylabel 'ratio of medians'
set yrange [0.863427:1.02]
set key at screen 0.68, screen 0.38 left top reverse Left box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot 1 with lines lc rgb 'black' lw 1 notitle, here.'moe_vec-nvidia-h200-timing.dat' index 7 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#1f77b4' title 'gguf.moe_vec fixed / gguf.moe_vec legacy', \
     here.'moe_vec-nvidia-h200-timing.dat' index 8 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#2ca02c' title 'gguf.moe_vec zchunk / gguf.moe_vec legacy', \
     here.'moe_vec-nvidia-h200-timing.dat' index 9 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#ff7f0e' title 'gguf.moe_vec rows_x / gguf.moe_vec legacy', \
     here.'moe_vec-nvidia-h200-timing.dat' index 10 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#9467bd' title 'gguf.moe_vec pairs_x / gguf.moe_vec legacy', \
     here.'moe_vec-nvidia-h200-timing.dat' index 11 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#e377c2' title 'vllm.moe_vec chunked / vllm.moe_vec upstream', \
     here.'moe_vec-nvidia-h200-timing.dat' index 12 using 1:2 with linespoints pt 9 ps 1.2 lw 2 dt 2 lc rgb '#1f77b4' title 'gguf.moe_vec fixed / vllm.moe_vec upstream'
unset multiplot

set output

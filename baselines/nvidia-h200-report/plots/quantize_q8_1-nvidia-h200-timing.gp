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
set output here.'quantize_q8_1-nvidia-h200-timing.png'
set multiplot title 'quantize_q8_1 on NVIDIA H200: median time by rows' font ',14'
set lmargin at screen 0.09
set rmargin at screen 0.66
set grid
set logscale x
set xrange [42.6667:3.7355e+06]
set format x '%.0f'

# times
set tmargin at screen 0.90
set bmargin at screen 0.42
set logscale y
set ylabel 'ms per call (median; bars min..max)'
set format x ''
set key at screen 0.68, screen 0.90 left top reverse Left box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'quantize_q8_1-nvidia-h200-timing.dat' index 0 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#1f77b4' title 'vllm.quantize_q8_1 upstream', \
     here.'quantize_q8_1-nvidia-h200-timing.dat' index 1 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#d62728' title 'vllm.quantize_q8_1 chunked', \
     here.'quantize_q8_1-nvidia-h200-timing.dat' index 2 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#2ca02c' title 'gguf.quantize_q8_1 legacy', \
     here.'quantize_q8_1-nvidia-h200-timing.dat' index 3 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#ff7f0e' title 'gguf.quantize_q8_1 fixed'

# ratios
set tmargin at screen 0.38
set bmargin at screen 0.10
unset logscale y
set format x '%.0f'
set xlabel 'rows'
set ylabel 'ratio of medians'
set yrange [0.959876:1.12968]
set key at screen 0.68, screen 0.38 left top reverse Left box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot 1 with lines lc rgb 'black' lw 1 notitle, here.'quantize_q8_1-nvidia-h200-timing.dat' index 4 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#d62728' title 'vllm.quantize_q8_1 chunked / vllm.quantize_q8_1 upstream', \
     here.'quantize_q8_1-nvidia-h200-timing.dat' index 5 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#ff7f0e' title 'gguf.quantize_q8_1 fixed / gguf.quantize_q8_1 legacy'
unset multiplot

set output

# SVG (the same commands)
reset
set terminal svg size 1300,820 noenhanced font 'sans,10' background rgb 'white'
set output here.'quantize_q8_1-nvidia-h200-timing.svg'
set multiplot title 'quantize_q8_1 on NVIDIA H200: median time by rows' font ',14'
set lmargin at screen 0.09
set rmargin at screen 0.66
set grid
set logscale x
set xrange [42.6667:3.7355e+06]
set format x '%.0f'

# times
set tmargin at screen 0.90
set bmargin at screen 0.42
set logscale y
set ylabel 'ms per call (median; bars min..max)'
set format x ''
set key at screen 0.68, screen 0.90 left top reverse Left box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot here.'quantize_q8_1-nvidia-h200-timing.dat' index 0 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#1f77b4' title 'vllm.quantize_q8_1 upstream', \
     here.'quantize_q8_1-nvidia-h200-timing.dat' index 1 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#d62728' title 'vllm.quantize_q8_1 chunked', \
     here.'quantize_q8_1-nvidia-h200-timing.dat' index 2 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#2ca02c' title 'gguf.quantize_q8_1 legacy', \
     here.'quantize_q8_1-nvidia-h200-timing.dat' index 3 using 1:2:3:4 with yerrorlines pt 7 ps 1.2 lw 2 lc rgb '#ff7f0e' title 'gguf.quantize_q8_1 fixed'

# ratios
set tmargin at screen 0.38
set bmargin at screen 0.10
unset logscale y
set format x '%.0f'
set xlabel 'rows'
set ylabel 'ratio of medians'
set yrange [0.959876:1.12968]
set key at screen 0.68, screen 0.38 left top reverse Left box lc rgb '#c0c0c0' samplen 2 spacing 1.2
plot 1 with lines lc rgb 'black' lw 1 notitle, here.'quantize_q8_1-nvidia-h200-timing.dat' index 4 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#d62728' title 'vllm.quantize_q8_1 chunked / vllm.quantize_q8_1 upstream', \
     here.'quantize_q8_1-nvidia-h200-timing.dat' index 5 using 1:2 with linespoints pt 7 ps 1.2 lw 2 dt 1 lc rgb '#ff7f0e' title 'gguf.quantize_q8_1 fixed / gguf.quantize_q8_1 legacy'
unset multiplot

set output

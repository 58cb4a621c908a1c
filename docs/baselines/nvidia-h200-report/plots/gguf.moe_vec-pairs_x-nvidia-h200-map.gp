set title 'gguf.moe_vec pairs_x on NVIDIA H200: verdict by tokens x top_k'
set xlabel 'tokens'
set ylabel 'top_k'
set key below
set grid
set samples 1000
set logscale x
set xrange [0.625:774.4]
set yrange [0:11]
set terminal pngcairo size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/gguf.moe_vec-pairs_x-nvidia-h200-map.png'
plot 'docs/baselines/nvidia-h200-report/plots/gguf.moe_vec-pairs_x-nvidia-h200-map.dat' index 0 using 1:2 with points pt 5 ps 1.0 lc rgb '#2ca02c' title 'pass'
set terminal svg size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/gguf.moe_vec-pairs_x-nvidia-h200-map.svg'
replot
set output

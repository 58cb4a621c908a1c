set title 'gguf.mmvq fixed on NVIDIA H200: verdict by cols x rows'
set xlabel 'cols'
set ylabel 'rows'
set key below
set grid
set samples 1000
set xrange [-193.28:3073.28]
set logscale y
set yrange [0.625:2252.8]
set terminal pngcairo size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/gguf.mmvq-fixed-nvidia-h200-map.png'
plot 'docs/baselines/nvidia-h200-report/plots/gguf.mmvq-fixed-nvidia-h200-map.dat' index 0 using 1:2 with points pt 5 ps 1.0 lc rgb '#2ca02c' title 'pass'
set terminal svg size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/gguf.mmvq-fixed-nvidia-h200-map.svg'
replot
set output

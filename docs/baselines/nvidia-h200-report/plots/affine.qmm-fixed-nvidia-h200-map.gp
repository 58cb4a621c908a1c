set title 'affine.qmm fixed on NVIDIA H200: verdict by tokens x vocab'
set xlabel 'tokens'
set ylabel 'vocab'
set key below
set grid
set samples 1000
set xrange [-0.2:17.2]
set logscale y
set yrange [80:51404.8]
set terminal pngcairo size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/affine.qmm-fixed-nvidia-h200-map.png'
plot 'docs/baselines/nvidia-h200-report/plots/affine.qmm-fixed-nvidia-h200-map.dat' index 0 using 1:2 with points pt 5 ps 1.0 lc rgb '#2ca02c' title 'pass'
set terminal svg size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/affine.qmm-fixed-nvidia-h200-map.svg'
replot
set output

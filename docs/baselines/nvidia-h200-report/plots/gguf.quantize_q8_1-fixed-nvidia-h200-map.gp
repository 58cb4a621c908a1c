set title 'gguf.quantize_q8_1 fixed on NVIDIA H200: verdict by rows x cols'
set xlabel 'rows'
set ylabel 'cols'
set key below
set grid
set samples 1000
set xrange [-0.88:69.88]
set yrange [2813:2819]
set terminal pngcairo size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/gguf.quantize_q8_1-fixed-nvidia-h200-map.png'
plot 'docs/baselines/nvidia-h200-report/plots/gguf.quantize_q8_1-fixed-nvidia-h200-map.dat' index 0 using 1:2 with points pt 5 ps 1.0 lc rgb '#2ca02c' title 'pass'
set terminal svg size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/gguf.quantize_q8_1-fixed-nvidia-h200-map.svg'
replot
set output

set title 'gguf.mmvq legacy on NVIDIA H200: verdict by nvecs x cols'
set xlabel 'nvecs'
set ylabel 'cols'
set key below
set grid
set samples 1000
set logscale x
set xrange [3.75:3.57914e+07]
set yrange [-193.28:3073.28]
set terminal pngcairo size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/gguf.mmvq-legacy-nvidia-h200-map.png'
plot 'docs/baselines/nvidia-h200-report/plots/gguf.mmvq-legacy-nvidia-h200-map.dat' index 0 using 1:2 with points pt 5 ps 1.0 lc rgb '#2ca02c' title 'pass', \
     'docs/baselines/nvidia-h200-report/plots/gguf.mmvq-legacy-nvidia-h200-map.dat' index 1 using 1:2 with points pt 5 ps 1.0 lc rgb '#ff7f0e' title 'expected-fail', \
     'docs/baselines/nvidia-h200-report/plots/gguf.mmvq-legacy-nvidia-h200-map.dat' index 2 using 1:2 with points pt 5 ps 1.0 lc rgb '#7f7f7f' title 'skipped'
set terminal svg size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/gguf.mmvq-legacy-nvidia-h200-map.svg'
replot
set output

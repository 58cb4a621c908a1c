set title 'affine.gather_qmm legacy on NVIDIA H200: verdict by tokens x top_k'
set xlabel 'tokens'
set ylabel 'top_k'
set key below
set grid
set samples 1000
set logscale x
set xrange [0.625:838866]
set yrange [0:9]
limit(x) = 65528.0 / x
set terminal pngcairo size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/affine.gather_qmm-legacy-nvidia-h200-map.png'
plot 'docs/baselines/nvidia-h200-report/plots/affine.gather_qmm-legacy-nvidia-h200-map.dat' index 0 using 1:2 with points pt 5 ps 1.0 lc rgb '#2ca02c' title 'pass', \
     'docs/baselines/nvidia-h200-report/plots/affine.gather_qmm-legacy-nvidia-h200-map.dat' index 1 using 1:2 with points pt 5 ps 1.0 lc rgb '#ff7f0e' title 'expected-fail', \
     'docs/baselines/nvidia-h200-report/plots/affine.gather_qmm-legacy-nvidia-h200-map.dat' index 2 using 1:2 with points pt 5 ps 1.0 lc rgb '#7f7f7f' title 'skipped', \
     limit(x) with lines lw 2 dt 2 lc rgb 'black' title 'predicted limit (refuse:grid.z): tokens*top_k <= 65528, fails from 65536'
set terminal svg size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/affine.gather_qmm-legacy-nvidia-h200-map.svg'
replot
set output

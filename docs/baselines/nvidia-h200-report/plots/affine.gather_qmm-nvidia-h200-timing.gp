set title 'affine.gather_qmm on NVIDIA H200: median time by tokens'
set xlabel 'tokens'
set ylabel 'time per call, ms (median, bars min..max)'
set key outside right top
set grid
set logscale x
set xrange [10:13105.6]
set logscale y
set terminal pngcairo size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/affine.gather_qmm-nvidia-h200-timing.png'
plot 'docs/baselines/nvidia-h200-report/plots/affine.gather_qmm-nvidia-h200-timing.dat' index 0 using 1:2:3:4 with yerrorlines pt 7 title 'fixed', \
     'docs/baselines/nvidia-h200-report/plots/affine.gather_qmm-nvidia-h200-timing.dat' index 1 using 1:2:3:4 with yerrorlines pt 7 title 'legacy'
set terminal svg size 1000,700 noenhanced
set output 'docs/baselines/nvidia-h200-report/plots/affine.gather_qmm-nvidia-h200-timing.svg'
replot
set output

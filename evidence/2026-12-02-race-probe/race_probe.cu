#include <cstdio>
#include <cstdint>
#include <vector>
typedef uint32_t u;typedef uint64_t U;
__global__ void z(u*y,U n){U i=blockIdx.x*(U)blockDim.x+threadIdx.x;if(i<n)y[i]=0;}
__global__ void a(const u*x,u*y,U c){U k=threadIdx.x;u v=x[(U)blockIdx.x*c+k];y[k]+=v;}
__global__ void f(u*x,U n){U i=blockIdx.x*(U)blockDim.x+threadIdx.x;if(i<n){U h=i*0x9E3779B97F4A7C15ull;h^=h>>29;x[i]=(u)h&0x7FFFFFFF;}}
int main(){U S[]={4096,1024,256,64,16,4,2};for(U r:S){U c=256,n=r*c;u*x,*y;cudaMalloc(&x,n*4);cudaMalloc(&y,c*4);f<<<(n+255)/256,256>>>(x,n);
std::vector<u>hx(n),e(c,0),p(c),q(c);cudaMemcpy(hx.data(),x,n*4,cudaMemcpyDeviceToHost);for(U i=0;i<n;++i)e[i%c]+=hx[i];
int N=200,same=0,wrong=0;U lo=~0ull,hi=0;for(int k=0;k<N;++k){z<<<1,256>>>(y,c);a<<<r,c>>>(x,y,c);cudaMemcpy(q.data(),y,c*4,cudaMemcpyDeviceToHost);
U w=0,d=0;for(U j=0;j<c;++j){w+=q[j]!=e[j];d+=q[j]!=p[j];}wrong+=w>0;if(k){same+=d==0;lo=d<lo?d:lo;hi=d>hi?d:hi;}p=q;}
printf("rows %llu: wrong %d/%d, equal pairs %d/%d, differ %llu..%llu\n",(unsigned long long)r,wrong,N,same,N-1,(unsigned long long)lo,(unsigned long long)hi);cudaFree(x);cudaFree(y);}
printf("%s\n",cudaGetErrorString(cudaGetLastError()));}

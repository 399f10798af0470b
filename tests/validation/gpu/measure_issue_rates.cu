// Per-SM issue rates on one CUDA GPU, in results per SM clock cycle (clock64 around each block's
// loop, so independent of the clock the GPU chose): k<0> the synchronous warp MMA (mma.sync
// m16n8k16 bf16 with fp32 accumulators, what FlashAttention-2 issues; 2048 MACs each), k<1> the
// special-function exp2 (ex2.approx, MUFU.EX2), k<2> the fp32 FMA. One block per SM of 4..32
// warps, each warp with 8 independent chains so that issue, not latency, limits; it prints one
// JSON object (per path and warp count: the mean rate over the SMs, the kernel's time, the clock
// that implies). This is the exact program that ran, written compactly to pass as one device
// command: nvcc -O3 -gencode=arch=compute_90,code=sm_90 m.cu -o m && ./m
#include <cstdio>
#define R(...)asm volatile(__VA_ARGS__)
__device__ long long S[4096];
template<int P>__global__ void k(float*o){unsigned a=threadIdx.x,b=a*3;float c[8][4]={},x[8];for(int j=0;j<8;j++)x[j]=-1-.001f*(a+j);__syncthreads();long long t=clock64();for(int i=0;i<4096;i++)
#pragma unroll
for(int j=0;j<8;j++){if(P==0)R("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3},{%4,%4,%4,%4},{%5,%5},{%0,%1,%2,%3};":"+f"(c[j][0]),"+f"(c[j][1]),"+f"(c[j][2]),"+f"(c[j][3]):"r"(a),"r"(b));if(P==1)R("ex2.approx.ftz.f32 %0,%0;":"+f"(x[j]));if(P==2)R("fma.rn.f32 %0,%0,0f3F7FF000,0f3A800000;":"+f"(x[j]));}
__syncthreads();if(!a)S[blockIdx.x]=clock64()-t;float s=0;for(int j=0;j<8;j++)s+=c[j][0]+x[j];if(s==1.5f)*o=s;}
int main(){cudaDeviceProp p;cudaGetDeviceProperties(&p,0);int n=p.multiProcessorCount;float*o;cudaMalloc(&o,4);const char*N[]={"mma_sync_bf16_macs","ex2_results","ffma_results"};double W[]={2048*4096.*8,32*4096.*8,32*4096.*8};printf("{\"device\":\"%s\",\"sms\":%d",p.name,n);for(int q=0;q<3;q++)for(int w=4;w<=32;w*=2){void(*f)(float*)=q==0?k<0>:q==1?k<1>:k<2>;f<<<n,w*32>>>(o);cudaEvent_t e0,e1;cudaEventCreate(&e0);cudaEventCreate(&e1);cudaEventRecord(e0);f<<<n,w*32>>>(o);cudaEventRecord(e1);cudaEventSynchronize(e1);float ms;cudaEventElapsedTime(&ms,e0,e1);long long h[4096];cudaMemcpyFromSymbol(h,S,8*n);double r=0,cy=0;for(int i=0;i<n;i++){r+=W[q]*w/h[i]/n;cy+=h[i]/(double)n;}printf(",\"%s_w%d\":{\"per_sm_cycle\":%.2f,\"ms\":%.4f,\"clock_ghz\":%.3f}",N[q],w,r,ms,cy/ms/1e6);}printf(",\"status\":\"%s\"}\n",cudaGetErrorString(cudaDeviceSynchronize()));}

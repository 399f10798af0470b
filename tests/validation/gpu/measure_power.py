# Board power while one kernel runs back to back, sampled by nvidia-smi every 100 ms: the data
# of polyarch's GPU power cases (h200_power_run1.json). Run as `OUT=DIR python3 measure_power.py`
# on one CUDA GPU; it writes DIR/power.json. For each kernel: 3 warm-up calls, then calls in
# groups of 10 for 8 s (5 s of 10 ms sleeps for `idle`: the context held, no kernel running);
# ms_per_call from CUDA events over the whole span; power, SM clock and temperature are the
# medians of the samples' second half. This is the exact program that ran, written compactly
# to pass as one device command.
import torch,subprocess as sp,threading,time,json,os,statistics as st
import torch.nn.functional as F
from torch.nn.attention import SDPBackend as B,sdpa_kernel
def smi():
 o=sp.run(['nvidia-smi','--query-gpu=power.draw,clocks.sm,temperature.gpu','--format=csv,noheader,nounits'],capture_output=True,text=True).stdout
 return [float(x) for x in o.split(',')]
R={'device':torch.cuda.get_device_name(),'date_utc':time.strftime('%Y-%m-%dT%H:%M:%SZ',time.gmtime())}
def run(name,fn,sec=8.0):
 s=[];stop=threading.Event()
 def smp():
  while not stop.is_set():
   try:s.append(smi())
   except Exception:pass
   time.sleep(0.1)
 for _ in range(3):fn()
 torch.cuda.synchronize();t=threading.Thread(target=smp);t.start();n=0;t0=time.time()
 a=torch.cuda.Event(enable_timing=True);b=torch.cuda.Event(enable_timing=True);a.record()
 while time.time()-t0<sec:
  for _ in range(10):fn()
  n+=10;torch.cuda.synchronize()
 b.record();torch.cuda.synchronize();stop.set();t.join();h=s[len(s)//2:]
 R[name]={'ms_per_call':a.elapsed_time(b)/n,'calls':n,'power_w':st.median(x[0] for x in h),'sm_mhz':st.median(x[1] for x in h),'temp_c':st.median(x[2] for x in h),'samples':len(s)}
 print(name,R[name])
run('idle',lambda:time.sleep(0.01),5)
g=torch.randn(8192,8192,device='cuda',dtype=torch.bfloat16);h=torch.randn_like(g)
run('gemm_bf16_8192',lambda:g@h);del g,h
x=torch.randn(1<<28,device='cuda',dtype=torch.bfloat16);y=torch.empty_like(x)
run('copy_bf16_2e28',lambda:y.copy_(x));del x,y
q=torch.randn(4,16,4096,128,device='cuda',dtype=torch.bfloat16);k=torch.randn_like(q);v=torch.randn_like(q)
with sdpa_kernel([B.FLASH_ATTENTION]):run('attn_b4_h16_s4096_d128',lambda:F.scaled_dot_product_attention(q,k,v))
del q,k,v
z=torch.randn(65536,4096,device='cuda',dtype=torch.bfloat16);w=torch.ones(4096,device='cuda',dtype=torch.bfloat16)
run('layernorm_bf16_65536x4096',lambda:F.layer_norm(z,(4096,),w,w))
json.dump(R,open(os.environ['OUT']+'/power.json','w'),indent=1)

#!/usr/bin/env python3
# Slowloris against a running server (docs/BENCHMARKS.md): opens N TCP
# connections from the given loopback addresses, each sending half a
# WebSocket handshake, and reports how many were refused at once, how many
# held, and when the server closed the held ones.
# Usage: scripts/slowloris.py PORT N 127.0.0.2[,127.0.0.3,...]
import asyncio, sys, time
PARTIAL = b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
async def one(port, ip, results):
    t0 = time.monotonic()
    try:
        r, w = await asyncio.open_connection("127.0.0.1", port, local_addr=(ip, 0))
        try:
            w.write(PARTIAL); await w.drain()
        except Exception:
            pass
        try:
            await asyncio.wait_for(r.read(1024), timeout=120)
        except Exception:
            pass
        results.append(time.monotonic() - t0)
        w.close()
    except Exception as e:
        results.append(-1)
async def main():
    port = int(sys.argv[1]); n = int(sys.argv[2]); ips = sys.argv[3].split(",")
    results = []
    t0 = time.monotonic()
    tasks = [asyncio.create_task(one(port, ips[i % len(ips)], results)) for i in range(n)]
    await asyncio.gather(*tasks)
    refused = sum(1 for t in results if 0 <= t < 1.0)
    held = [t for t in results if t >= 1.0]
    failed = sum(1 for t in results if t < 0)
    print(f"{n} connections from {len(ips)} address(es): refused at once {refused}, held {len(held)}, connect failed {failed}; "
          f"held ones closed after {min(held) if held else 0:.1f} to {max(held) if held else 0:.1f} s; total {time.monotonic()-t0:.1f} s")
asyncio.run(main())

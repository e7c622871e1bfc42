-- wrk script for the Parley bench (test/bench/load.ts): sends a list of prepared raw HTTP
-- requests in rotation, so a scenario can spread writes over thousands of conversations or mix
-- reads and writes, and prints the result as one JSON line for load.ts to read.
--   wrk -t1 -c32 -d10s -s test/bench/rotate.lua http://127.0.0.1:PORT -- REQUESTS_FILE
-- REQUESTS_FILE holds complete requests (request line, headers, body) separated by NUL bytes.

local requests = {}
local count = 0
local next_index = 1

function init(args)
  local file = assert(io.open(args[1], "rb"), "cannot open " .. tostring(args[1]))
  local data = file:read("*a")
  file:close()
  for raw in string.gmatch(data, "([^%z]+)") do
    count = count + 1
    requests[count] = raw
  end
  assert(count > 0, "no requests in " .. args[1])
  -- Threads start at different points of the rotation.
  next_index = (math.random(count) - 1) % count + 1
end

function request()
  local raw = requests[next_index]
  next_index = next_index % count + 1
  return raw
end

function done(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"max_us":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end

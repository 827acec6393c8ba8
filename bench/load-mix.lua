-- wrk script for bench/load-oha.sh's closed-loop run: the same mix of requests as the
-- paced run, each from a random seat of the ones the setup wrote (argument 1: a Lua
-- file returning {token, game, orders, other} per seat; the game id is a string, as
-- ids are past what LuaJIT prints as an integer).
local seats
local since = 0

init = function(args)
  seats = dofile(args[1])
  since = tonumber(args[2]) or 0
  math.randomseed(os.time() + math.floor(os.clock() * 1e6))
end

request = function()
  local s = seats[math.random(#seats)]
  local auth = { ["Authorization"] = "Bearer " .. s.token, ["Content-Type"] = "application/json" }
  local game = "/api/games/" .. s.game
  local roll = math.random(100)
  if roll <= 30 then
    return wrk.format("GET", game .. "/orders", auth)
  elseif roll <= 55 then
    return wrk.format("POST", game .. "/orders", auth, s.orders)
  elseif roll <= 70 then
    return wrk.format("GET", game, auth)
  elseif roll <= 80 then
    return wrk.format("POST", game .. "/press", auth,
      '{"to":["' .. s.other .. '"],"body":"load test message"}')
  else
    return wrk.format("GET", game .. "/press?since_ms=" .. since, auth)
  end
end

done = function(summary, latency)
  io.write(string.format("wrk closed loop: %d requests in %.1f s (%.0f/s), p50 %.2f ms, p99 %.2f ms, max %.1f ms, 4xx/5xx %d, socket errors %d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000, summary.errors.status,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end

-- tools/love_minimal_test/main.lua: the headless test of examples/love-minimal
-- (make love-minimal-test): runs that main.lua unchanged, with the keyboard
-- scripted (D for 1.5 s: east up the stairs; then W with a jump) at a fixed dt of
-- 1/60 s, prints where the character is, saves a screenshot and quits; exits
-- with status 1 when the character did not climb the stairs.
local shot = arg[#arg]:match("%.png$") and arg[#arg] or nil
local root = love.filesystem.getSource() .. "/../.."
local game = root .. "/examples/love-minimal"
love.filesystem.getSource = function() return game end
local down = {}
love.keyboard.isDown = function(k) return down[k] == true end
local player
local newCharacter
do   -- keep the example's character to read it back
  package.path = root .. "/lua/?.lua;" .. root .. "/lua/?/init.lua;" .. package.path
  package.cpath = root .. "/build/luajit/?.so;" .. package.cpath
  local cs = require "collideslide"
  newCharacter = cs.newCharacter
  cs.newCharacter = function(s) player = newCharacter(s); return player end
end
dofile(game .. "/main.lua")

local frame, top = 0, 0
function love.run()
  return function()
    love.event.pump()
    for name in love.event.poll() do if name == "quit" then return 0 end end
    frame = frame + 1
    down = frame <= 90 and { d = true } or { w = true, space = frame == 100 }
    love.update(1 / 60)
    if frame == 90 then top = select(2, player:getPosition()) end
    love.graphics.origin()
    love.graphics.clear(0.1, 0.1, 0.12)
    love.draw()
    love.graphics.present()
    if frame == 150 and shot then love.graphics.captureScreenshot(function(data)
      data:encode("png", "love-minimal.png")
    end) end
    if frame == 152 then
      local x, y, z = player:getPosition()
      print(("love-minimal: after 1.5 s east the centre was at y = %.3f; now (%.2f, %.2f, %.2f) %s"):format(
        top, x, y, z, player.groundState))
      if shot then
        local saved = love.filesystem.getSaveDirectory() .. "/love-minimal.png"
        os.execute(("cp '%s' '%s'"):format(saved, shot))
      end
      return top > 2.0 and 0 or 1
    end
  end
end

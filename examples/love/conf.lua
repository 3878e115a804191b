-- examples/love/conf.lua: LÖVE 11 settings of the collideslide playground.
function love.conf(t)
  t.identity = "collideslide-playground"   -- the save directory's name
  t.version = "11.0"
  t.window.title = "collideslide playground"
  t.window.width = 1280
  t.window.height = 800
  t.window.resizable = true
  t.window.minwidth, t.window.minheight = 960, 640
  t.window.msaa = 4
  -- a scripted run (the headless test) runs at a fixed dt: no need to wait for
  -- the display
  for _, a in ipairs(arg or {}) do
    if a == "--script" or a == "--screenshot" or a == "--replay-compare" then t.window.vsync = 0 end
  end
  -- nothing here plays sound or uses physics (and a headless run
  -- under Xvfb has no sound device)
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = true     -- gamepads drive the character too
  t.modules.physics = false
  t.modules.video = false
end

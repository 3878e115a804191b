function love.conf(t)
  t.identity = "collideslide-love-minimal-test"
  t.window.width, t.window.height, t.window.vsync = 800, 600, 0
  t.modules.audio, t.modules.sound, t.modules.joystick, t.modules.physics = false, false, false, false
end

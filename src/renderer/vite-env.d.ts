// Vite handles CSS imports in the renderer.
/// <reference types="vite/client" />

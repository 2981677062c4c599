// Loose types for the parts of three.js the Blokus 3D page uses (web/js/cube-scene.js),
// so that `tsc --checkJs` checks our code without type-checking the library itself.
export const Scene: any;
export const PerspectiveCamera: any;
export const WebGLRenderer: any;
export const Color: any;
export const Group: any;
export const Mesh: any;
export const BoxGeometry: any;
export const EdgesGeometry: any;
export const LineSegments: any;
export const LineBasicMaterial: any;
export const MeshLambertMaterial: any;
export const MeshBasicMaterial: any;
export const AmbientLight: any;
export const DirectionalLight: any;
export const Raycaster: any;
export const Vector2: any;
export const Vector3: any;
export const Sprite: any;
export const SpriteMaterial: any;
export const CanvasTexture: any;

// Package nn is the policy/value network: a residual convolutional net
// trained by a hand-written forward and backward pass on im2col and GEMM
// (Trainer, with gorgonia's automatic differentiation kept as a reference
// backend) and a fast batched forward pass over the same weights for
// search (Inference).
//
// The net reads a game's feature planes (engine.Shape) and has three heads:
// policy logits over the game's fixed action space, win/draw/loss logits for
// each of Config.Seats players counted from the player to move, and a
// predicted final score difference per seat. Weights live in plain float32
// slices (Weights), which the trainer wraps for gorgonia, Inference folds
// and packs for speed, and checkpoints stores on disk.
package nn

import (
	"cmp"
	"fmt"
	"slices"

	"trench/engine"
	"trench/internal/excerpt"
)

// Config is the net's architecture. It is saved with every checkpoint.
type Config struct {
	// Shape is the input feature shape of one position.
	Shape engine.Shape `json:"shape"`
	// Actions is the size of the policy output.
	Actions int `json:"actions"`
	// Channels is the width C of the residual trunk.
	Channels int `json:"channels"`
	// Blocks is the number of residual blocks.
	Blocks int `json:"blocks"`
	// Seats is how many players' outcomes the value and score heads
	// predict, starting with the player to move: 1 for two-player zero-sum
	// games.
	Seats int `json:"seats"`
	// PolicyChannels is the width of the policy head's first convolution:
	// 1×1 before a dense layer, or 3×3 before the output convolution of a
	// spatial head.
	PolicyChannels int `json:"policy_channels"`
	// PolicyPlanes, when positive, makes the policy head spatial (for
	// games implementing engine.SpatialActions): a 3×3 convolution to
	// PolicyPlanes output planes whose value at square s, plane k is the
	// logit of action s·PolicyPlanes + k. Zero means a dense layer over the
	// whole board.
	PolicyPlanes int `json:"policy_planes,omitempty"`
	// PolicyKernel is the size of a spatial head's output convolution, 3
	// or 1 (0, as in nets saved before it existed, means 3). A game with
	// hundreds of move shapes takes 1: the 3×3 convolution before it
	// already sees each square's neighbours.
	PolicyKernel int `json:"policy_kernel,omitempty"`
	// PolicyCells, when set, maps the spatial head's outputs to actions
	// that do not fill every plane at every square (engine.ActionCells):
	// action a's logit is the output at index PolicyCells[a] =
	// s·PolicyPlanes + k. Unset means action a is output a.
	PolicyCells []int32 `json:"policy_cells,omitempty"`
	// ValueChannels is the width of the value head's 1×1 convolution.
	ValueChannels int `json:"value_channels"`
	// ValueHidden is the width of the value head's hidden dense layer,
	// shared by the WDL and score outputs.
	ValueHidden int `json:"value_hidden"`
	// ScoreScale divides score targets before the loss; the score head
	// predicts score/ScoreScale and Inference multiplies it back.
	ScoreScale float32 `json:"score_scale"`
	// ValueBase says what the value and score heads predict: the whole
	// value (ValueBaseNone, as in nets saved before it existed) or a
	// correction to per-position offsets (ValueBaseMaterial), which
	// training passes in each Batch and search adds to the outputs of
	// Inference (tactics.ValueOffsets).
	ValueBase string `json:"value_base,omitempty"`
	// PolicyBase says what the policy head predicts: the whole logits
	// (PolicyBaseNone, as in nets saved before it existed) or a
	// correction to per-action offsets (PolicyBaseCapture), which
	// training passes in each Batch and search adds to the outputs of
	// Inference (tactics.PolicyOffsets).
	PolicyBase string `json:"policy_base,omitempty"`
}

// Value bases of Config.ValueBase.
const (
	// ValueBaseNone: the heads predict the whole value and score.
	ValueBaseNone = ""
	// ValueBaseMaterial: the heads predict a correction to offsets drawn
	// from each player's material lead.
	ValueBaseMaterial = "material"
)

// Policy bases of Config.PolicyBase.
const (
	// PolicyBaseNone: the head predicts the whole logits.
	PolicyBaseNone = ""
	// PolicyBaseCapture: the head predicts a correction to the logarithms
	// of the capture-first priors of the search's capture aid.
	PolicyBaseCapture = "capture"
)

// BNEpsilon is the variance epsilon of every batch normalization.
const BNEpsilon = 1e-5

// Presets lists the named architectures, smallest first.
var Presets = []string{"tiny", "compact", "small", "medium", "large"}

// Preset returns the named architecture for a game with the given feature
// shape and action count.
func Preset(name string, shape engine.Shape, actions int) (Config, error) {
	c := Config{Shape: shape, Actions: actions, Seats: 1, PolicyChannels: 4, ValueChannels: 4, ScoreScale: 36}
	switch name {
	case "tiny":
		c.Channels, c.Blocks, c.PolicyChannels, c.ValueChannels, c.ValueHidden = 8, 1, 2, 2, 16
	case "compact":
		c.Channels, c.Blocks, c.ValueHidden = 16, 2, 32
	case "small":
		c.Channels, c.Blocks, c.ValueHidden = 32, 4, 64
	case "medium":
		c.Channels, c.Blocks, c.ValueHidden = 64, 6, 128
	case "large":
		c.Channels, c.Blocks, c.ValueHidden = 128, 10, 256
	default:
		return Config{}, fmt.Errorf("unknown preset %s (want one of %v)", excerpt.Quote(name), Presets)
	}
	return c, c.Validate()
}

// PresetFor returns the named architecture for game g, with a spatial
// policy head when g lays its actions out over the board
// (engine.SpatialActions or engine.ActionCells) and a dense one otherwise, and g's score scale
// (engine.ScoreScaler; 36 without one).
func PresetFor(name string, g engine.Game) (Config, error) {
	c, err := Preset(name, g.FeatureShape(), g.ActionCount())
	if err != nil {
		return c, err
	}
	if ac, ok := g.(engine.ActionCells); ok {
		c.PolicyPlanes, c.PolicyChannels, c.PolicyKernel = ac.ActionPlanes(), c.Channels, 1
		c.PolicyCells = make([]int32, c.Actions)
		for a := range c.PolicyCells {
			c.PolicyCells[a] = int32(ac.ActionCell(a))
		}
	} else if sp, ok := g.(engine.SpatialActions); ok && sp.ActionPlanes()*c.Shape.Height*c.Shape.Width == c.Actions {
		c.PolicyPlanes, c.PolicyChannels = sp.ActionPlanes(), c.Channels
	}
	if ss, ok := g.(engine.ScoreScaler); ok {
		c.ScoreScale = ss.ScoreScale()
	}
	return c, c.Validate()
}

// Validate reports the first field that makes c unusable.
func (c Config) Validate() error {
	switch {
	case c.Shape.Planes <= 0 || c.Shape.Height <= 0 || c.Shape.Width <= 0:
		return fmt.Errorf("nn config: input shape %+v must be positive", c.Shape)
	case c.Actions <= 0:
		return fmt.Errorf("nn config: actions %d must be positive", c.Actions)
	case c.Channels <= 0 || c.Blocks < 0:
		return fmt.Errorf("nn config: channels %d must be positive and blocks %d not negative", c.Channels, c.Blocks)
	case c.Seats <= 0:
		return fmt.Errorf("nn config: seats %d must be positive", c.Seats)
	case c.PolicyChannels <= 0 || c.ValueChannels <= 0 || c.ValueHidden <= 0:
		return fmt.Errorf("nn config: head widths %d/%d/%d must be positive", c.PolicyChannels, c.ValueChannels, c.ValueHidden)
	case c.PolicyPlanes < 0 || (c.PolicyPlanes > 0 && c.PolicyCells == nil && c.PolicyPlanes*c.Shape.Height*c.Shape.Width != c.Actions):
		return fmt.Errorf("nn config: %d policy planes of %d×%d squares do not make %d actions", c.PolicyPlanes, c.Shape.Height, c.Shape.Width, c.Actions)
	case c.PolicyKernel != 0 && c.PolicyKernel != 1 && c.PolicyKernel != 3:
		return fmt.Errorf("nn config: policy kernel %d must be 1 or 3", c.PolicyKernel)
	case !(c.ScoreScale > 0):
		return fmt.Errorf("nn config: score scale %v must be positive", c.ScoreScale)
	case c.ValueBase != ValueBaseNone && c.ValueBase != ValueBaseMaterial:
		return fmt.Errorf("nn config: value base %s: want %q or none", excerpt.Quote(c.ValueBase), ValueBaseMaterial)
	case c.PolicyBase != PolicyBaseNone && c.PolicyBase != PolicyBaseCapture:
		return fmt.Errorf("nn config: policy base %s: want %q or none", excerpt.Quote(c.PolicyBase), PolicyBaseCapture)
	}
	const limit = 1 << 28
	if c.Shape.Size() > limit || c.Actions > limit || c.Channels > 1<<14 || c.Blocks > 1<<10 || c.Seats > 64 ||
		c.PolicyChannels > 1<<12 || c.PolicyPlanes > 1<<12 || c.ValueChannels > 1<<12 || c.ValueHidden > 1<<16 ||
		c.PolicyChannels*c.Shape.Height*c.Shape.Width*c.Actions > limit {
		return fmt.Errorf("nn config: %v is too large", c)
	}
	return c.validateCells()
}

// validateCells checks that PolicyCells, if set, gives every action its
// own output of the spatial head.
func (c Config) validateCells() error {
	if c.PolicyCells == nil {
		return nil
	}
	outputs := c.PolicyPlanes * c.Shape.Height * c.Shape.Width
	if c.PolicyPlanes == 0 || len(c.PolicyCells) != c.Actions {
		return fmt.Errorf("nn config: %d policy cells for %d actions and %d policy planes", len(c.PolicyCells), c.Actions, c.PolicyPlanes)
	}
	used := make([]bool, outputs)
	for a, cell := range c.PolicyCells {
		if cell < 0 || int(cell) >= outputs || used[cell] {
			return fmt.Errorf("nn config: policy cell %d of action %d is out of range [0, %d) or taken", cell, a, outputs)
		}
		used[cell] = true
	}
	return nil
}

// policyKernel is the size of a spatial head's output convolution.
func (c Config) policyKernel() int {
	if c.PolicyKernel == 0 {
		return 3
	}
	return c.PolicyKernel
}

// policyIndex returns, for each action, the spatial head's output plane
// and square that hold its logit.
func (c Config) policyIndex() (plane, square []int32) {
	plane, square = make([]int32, c.Actions), make([]int32, c.Actions)
	p := int32(c.PolicyPlanes)
	for a := range plane {
		cell := int32(a)
		if c.PolicyCells != nil {
			cell = c.PolicyCells[a]
		}
		plane[a], square[a] = cell%p, cell/p
	}
	return plane, square
}

// policyMap locates each action's logit in a spatial policy head's
// output: plane by plane, each plane n positions of h·w squares.
type policyMap struct {
	// plane and square are action a's logit's (Config.policyIndex).
	plane, square []int32
	// order lists the actions by plane, then square, so that a gather
	// reads the output in order.
	order []int32
}

// policyMap returns the map of c's spatial policy head.
func (c Config) policyMap() policyMap {
	plane, square := c.policyIndex()
	order := make([]int32, len(plane))
	for a := range order {
		order[a] = int32(a)
	}
	slices.SortFunc(order, func(a, b int32) int {
		return cmp.Or(cmp.Compare(plane[a], plane[b]), cmp.Compare(square[a], square[b]))
	})
	return policyMap{plane: plane, square: square, order: order}
}

// gather writes the logits of n positions of hw squares from out, the
// head's output, into dst (actions a position), adding each plane's
// bias when bias is not nil. It goes plane by plane, so that out is read
// in order: in the order of the actions, each position's gather missed
// the cache at almost every logit (a fifth of Trichess's forward pass).
func (m policyMap) gather(dst, out, bias []float32, n, actions, hw int) {
	cols := n * hw
	for _, a := range m.order {
		k := m.plane[a]
		from, b := out[int(k)*cols+int(m.square[a]):], float32(0)
		if bias != nil {
			b = bias[k]
		}
		for i := 0; i < n; i++ {
			dst[i*actions+int(a)] = from[i*hw] + b
		}
	}
}

// String is a short description such as "C64 B6 (19×8×8 → 2560, 1
// seats)", which names the value and policy bases of a net that has them.
func (c Config) String() string {
	base := ""
	if c.ValueBase != ValueBaseNone {
		base = ", " + c.ValueBase + " value base"
	}
	if c.PolicyBase != PolicyBaseNone {
		base += ", " + c.PolicyBase + " policy base"
	}
	return fmt.Sprintf("C%d B%d (%d×%d×%d → %d, %d seats%s)", c.Channels, c.Blocks,
		c.Shape.Planes, c.Shape.Height, c.Shape.Width, c.Actions, c.Seats, base)
}

// FLOPs is the number of floating-point operations (two per multiply-add)
// of one position's forward pass, convolutions and dense layers only.
func (c Config) FLOPs() int64 {
	hw := int64(c.Shape.Height * c.Shape.Width)
	ch := int64(c.Channels)
	macs := hw * ch * int64(c.Shape.Planes) * 9
	macs += int64(2*c.Blocks) * hw * ch * ch * 9
	macs += hw * ch * int64(c.ValueChannels)
	if c.PolicyPlanes > 0 {
		macs += hw * ch * int64(c.PolicyChannels) * 9
		k := int64(c.policyKernel())
		macs += hw * int64(c.PolicyChannels*c.PolicyPlanes) * k * k
	} else {
		macs += hw * ch * int64(c.PolicyChannels)
		macs += int64(c.PolicyChannels) * hw * int64(c.Actions)
	}
	macs += int64(c.ValueChannels) * hw * int64(c.ValueHidden)
	macs += int64(c.ValueHidden) * int64(c.Seats*4)
	return 2 * macs
}

// paramKind says how a parameter is used, which decides its gorgonia shape,
// whether it is trained, and whether weight decay applies.
type paramKind int

const (
	kindConv    paramKind = iota // conv kernel (out, in, k, k), decayed
	kindDense                    // dense kernel (in, out), decayed
	kindBias                     // dense bias (out)
	kindBNScale                  // batch-norm γ (C)
	kindBNBias                   // batch-norm β (C)
	kindBNMean                   // batch-norm running mean (C), not trained
	kindBNVar                    // batch-norm running variance (C), not trained
)

// paramSpec is one named parameter tensor.
type paramSpec struct {
	name  string
	shape []int
	kind  paramKind
}

func (s paramSpec) size() int {
	n := 1
	for _, d := range s.shape {
		n *= d
	}
	return n
}

// specs lists every parameter of the net in a fixed order.
func (c Config) specs() []paramSpec {
	var out []paramSpec
	conv := func(name string, cout, cin, k int) {
		out = append(out, paramSpec{name + "/conv", []int{cout, cin, k, k}, kindConv},
			paramSpec{name + "/bn/scale", []int{cout}, kindBNScale},
			paramSpec{name + "/bn/bias", []int{cout}, kindBNBias},
			paramSpec{name + "/bn/mean", []int{cout}, kindBNMean},
			paramSpec{name + "/bn/var", []int{cout}, kindBNVar})
	}
	dense := func(name string, in, o int) {
		out = append(out, paramSpec{name + "/w", []int{in, o}, kindDense}, paramSpec{name + "/b", []int{o}, kindBias})
	}
	hw := c.Shape.Height * c.Shape.Width
	conv("stem", c.Channels, c.Shape.Planes, 3)
	for b := 0; b < c.Blocks; b++ {
		conv(fmt.Sprintf("block%d/1", b), c.Channels, c.Channels, 3)
		conv(fmt.Sprintf("block%d/2", b), c.Channels, c.Channels, 3)
	}
	if c.PolicyPlanes > 0 {
		conv("policy", c.PolicyChannels, c.Channels, 3)
		k := c.policyKernel()
		out = append(out, paramSpec{"policy/out/conv", []int{c.PolicyPlanes, c.PolicyChannels, k, k}, kindConv},
			paramSpec{"policy/out/b", []int{c.PolicyPlanes}, kindBias})
	} else {
		conv("policy", c.PolicyChannels, c.Channels, 1)
		dense("policy/fc", c.PolicyChannels*hw, c.Actions)
	}
	conv("value", c.ValueChannels, c.Channels, 1)
	dense("value/fc1", c.ValueChannels*hw, c.ValueHidden)
	dense("value/fc2", c.ValueHidden, 3*c.Seats)
	dense("score/fc", c.ValueHidden, c.Seats)
	return out
}

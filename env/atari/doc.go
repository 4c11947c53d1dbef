// Package atari is the stream format of the paper's Atari prediction
// benchmark (paper §5): 275 inputs per step, a 16×16 grey frame, a one-hot
// action and the clipped reward,
//
//	x_t = frame_t/256 ⧺ onehot(a_t, 18) ⧺ clip(r_t, −1, 1)
//
// where frame_t is the 210×160 grey screen resized to 16×16 with bilinear
// interpolation exactly as OpenCV's cv::resize (INTER_LINEAR, 8-bit) does it
// (Downscale), and a_t is the index of the action in the game's minimal
// action set. The cumulant is the clipped reward; γ defaults to 0.98.
//
// The authors distribute recorded streams as protobuf (proto2) messages,
// described by experience.proto in this directory:
//
//	message ExperienceBuffer {
//	  repeated Experience experiences = 1;
//	  optional string enviroment_name = 2;   // spelled so in their files
//	  optional string policy_type = 3;
//	  message Experience {
//	    required float reward = 1;
//	    repeated float sensor_reading = 2;   // packed or not
//	    required bool done = 3;
//	    required int32 action = 4;
//	  }
//	}
//
// Decoder and Encoder read and write that format record by record with
// google.golang.org/protobuf/encoding/protowire, so that files of hundreds of
// megabytes are streamed, never held. Open turns a file into an
// env.Episodic stream that wraps around at its end.
package atari

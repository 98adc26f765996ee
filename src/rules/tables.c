/* Fixed tables: diagonal neighbours, jumps and Zobrist keys. Generated once and
 * checked by tests/test_tables.c; the Zobrist keys are part of the store's format. */
#include "rules/tables.h"

/* Directions in canonical order: up-left, up-right, down-left, down-right
 * (ascending destination square). -1 marks the edge of the board. */
const int8_t tab_step[4][32] = {
	{-1, -1, -1, -1, -1, 0, 1, 2, 4, 5, 6, 7, -1, 8, 9, 10, 12, 13, 14, 15, -1, 16, 17, 18, 20, 21, 22, 23, -1, 24, 25, 26},
	{-1, -1, -1, -1, 0, 1, 2, 3, 5, 6, 7, -1, 8, 9, 10, 11, 13, 14, 15, -1, 16, 17, 18, 19, 21, 22, 23, -1, 24, 25, 26, 27},
	{4, 5, 6, 7, -1, 8, 9, 10, 12, 13, 14, 15, -1, 16, 17, 18, 20, 21, 22, 23, -1, 24, 25, 26, 28, 29, 30, 31, -1, -1, -1, -1},
	{5, 6, 7, -1, 8, 9, 10, 11, 13, 14, 15, -1, 16, 17, 18, 19, 21, 22, 23, -1, 24, 25, 26, 27, 29, 30, 31, -1, -1, -1, -1, -1},
};
const int8_t tab_jump_over[4][32] = {
	{-1, -1, -1, -1, -1, -1, -1, -1, -1, 5, 6, 7, -1, 8, 9, 10, -1, 13, 14, 15, -1, 16, 17, 18, -1, 21, 22, 23, -1, 24, 25, 26},
	{-1, -1, -1, -1, -1, -1, -1, -1, 5, 6, 7, -1, 8, 9, 10, -1, 13, 14, 15, -1, 16, 17, 18, -1, 21, 22, 23, -1, 24, 25, 26, -1},
	{-1, 5, 6, 7, -1, 8, 9, 10, -1, 13, 14, 15, -1, 16, 17, 18, -1, 21, 22, 23, -1, 24, 25, 26, -1, -1, -1, -1, -1, -1, -1, -1},
	{5, 6, 7, -1, 8, 9, 10, -1, 13, 14, 15, -1, 16, 17, 18, -1, 21, 22, 23, -1, 24, 25, 26, -1, -1, -1, -1, -1, -1, -1, -1, -1},
};
const int8_t tab_jump_to[4][32] = {
	{-1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 2, -1, 4, 5, 6, -1, 8, 9, 10, -1, 12, 13, 14, -1, 16, 17, 18, -1, 20, 21, 22},
	{-1, -1, -1, -1, -1, -1, -1, -1, 1, 2, 3, -1, 5, 6, 7, -1, 9, 10, 11, -1, 13, 14, 15, -1, 17, 18, 19, -1, 21, 22, 23, -1},
	{-1, 8, 9, 10, -1, 12, 13, 14, -1, 16, 17, 18, -1, 20, 21, 22, -1, 24, 25, 26, -1, 28, 29, 30, -1, -1, -1, -1, -1, -1, -1, -1},
	{9, 10, 11, -1, 13, 14, 15, -1, 17, 18, 19, -1, 21, 22, 23, -1, 25, 26, 27, -1, 29, 30, 31, -1, -1, -1, -1, -1, -1, -1, -1, -1},
};

/* splitmix64 from seed 0x9E3779B97F4A7C15 ^ 0x706E646B6974, in this order:
 * [colour][king][bit], then the side-to-move key. */
const uint64_t zob_piece[2][2][32] = {
	{
		{
		 0x4abb0482fb805d67ull, 0xd1c9bffc5e5b836bull, 0x2413488cdbee2f14ull, 0x9be2ea8b632b31b9ull,
		 0x7e39b32adcb5c50bull, 0x0a4af090f6e0974aull, 0xe43e0f822391ba6aull, 0x95f67abc6b5dcc6cull,
		 0xa65d978f64284aacull, 0x4dd4ec1af50d1b63ull, 0x3b22cf82f5d35454ull, 0xb36ddbaea7441914ull,
		 0x0df1d3b3772abfd4ull, 0xb0c1b1c1bc2b647dull, 0xb3b28d50b5b3d208ull, 0x5b98a4e376bed407ull,
		 0x835fb74bf1c9b427ull, 0xa78d18d537dd0bdaull, 0x68110004de2872acull, 0x1f184cc0bd2307dfull,
		 0x3900673303817ab0ull, 0x80bfd3b13047f2f4ull, 0x9bc2ca77aaaab428ull, 0xb58f8b6197a81ab2ull,
		 0xd28fd6a85411cfafull, 0x6f805ae9102b4df5ull, 0x9990c1d6a39b4bc8ull, 0x0b238fe06b33233cull,
		 0x6872acf23dd27fefull, 0xcfe680edd749e9ceull, 0xcc386e11ae44b319ull, 0x2cbdfb13b8912404ull},
		{
		 0x44f4cee166474579ull, 0x17351d0798bfffddull, 0x549c3677e3efaebdull, 0xac050c16c3f696c5ull,
		 0x04ba9df994e61d6full, 0x6fae2c92464cf6a0ull, 0x341cfe88140fcb55ull, 0xea1c0c67bdae858full,
		 0x8c5ec6cd1b70c3aeull, 0xa0f509464ac383f2ull, 0x8ab208133bd87f5eull, 0xab8214d9f76352d7ull,
		 0x402407badc974537ull, 0x663e9ba0254740f4ull, 0x996c34c16433f25cull, 0x97df5566828621a6ull,
		 0xa73cd663dcf19ce9ull, 0x7574cea64319aefaull, 0x95b435b62be155bbull, 0xa58bcbadbbafdc86ull,
		 0x7548f41913a92682ull, 0xd78896d071389c8dull, 0xb5e6aa38a56ac3d2ull, 0x75723ea2df3d617aull,
		 0x9e3a4dca1e9600c7ull, 0x7ed230bb09431171ull, 0x4c85c50464a86756ull, 0x3982519e0698c651ull,
		 0xe3ebc76d586dcba0ull, 0x15cd66db36699633ull, 0xedd6dd399c47123eull, 0xd123dfd013877b67ull},
	},
	{
		{
		 0x6f9589c19a29a36bull, 0x76b3a4df69a119acull, 0x98371b30c06731f1ull, 0x0a6de71387ae46bbull,
		 0xd71976ba8e981e6eull, 0x878ccbccb55c7d9cull, 0x5b197858c0217795ull, 0x8def562069a3b7ddull,
		 0x8ac92f58570e4c93ull, 0xb97ba5d001ca9786ull, 0x1773652c4e6eefceull, 0x39cd5dd739ca322eull,
		 0xd8733ef321f46cfcull, 0x7bb2cc14c77f5741ull, 0x4afc3ebbb4cbcc29ull, 0x26cf62be0500c61full,
		 0xe0a391413a0e79f1ull, 0xef4888cf3d5a9874ull, 0x6b8569f30e15134cull, 0xbc30fdf3f25b36b7ull,
		 0x97952f11d82262eaull, 0xdd0f0b9bcd413e6bull, 0x9bc17e72abc4f352ull, 0x763699f59cfb9370ull,
		 0x8ad1ee038b2f4a74ull, 0x621dfeb69e85e987ull, 0x88d3186c3df5e45cull, 0x3a10eb23d12b13baull,
		 0x14c7f51824ae5261ull, 0x5ca6dade6a4701e0ull, 0xa6a7d56019896c71ull, 0x6ca38e4b6d74ec11ull},
		{
		 0xb66a8e63307c0473ull, 0xfdbf4620ff92e554ull, 0x77ca18154dc0e999ull, 0x89b12327e711d088ull,
		 0xd6d8a19291990d53ull, 0x86a2b66d73f17f99ull, 0x3c98abc596b48c68ull, 0xb95d81224d55d8e9ull,
		 0x4b10f1c8515d6ef8ull, 0xe4f4ae21b05bed1eull, 0x59fc4f48286103dcull, 0x308579c5c100d375ull,
		 0x0927385b25c6eb0eull, 0x973d051201e72288ull, 0xe38823a9891bb347ull, 0x5b9755dc5e3f32dbull,
		 0x7d93b051d13e046full, 0x7a3e69f10b40070dull, 0xeb6f2a82b5188203ull, 0x3d8b378486ac9f5cull,
		 0x0274660aef5ab3a6ull, 0x56e80783a256987dull, 0xfee06a9a70735c97ull, 0x1b040b761f019e76ull,
		 0x319c19514bc55fd5ull, 0x07246937fbe3b5d1ull, 0x678f129c19be9f26ull, 0x85b60813db924fb4ull,
		 0xeb1afcede62b0cc2ull, 0x06e43e6315637ed1ull, 0x23a77404d19fdadeull, 0x45678d052ad06aebull},
	},
};
const uint64_t zob_white_to_move = 0x60fa991a6ca1d477ull;

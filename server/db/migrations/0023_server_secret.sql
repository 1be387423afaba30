CREATE TABLE "server_secret" (
	"name" varchar(64) PRIMARY KEY NOT NULL,
	"secret" varchar(128) NOT NULL,
	"created_time" timestamp with time zone DEFAULT now() NOT NULL
);

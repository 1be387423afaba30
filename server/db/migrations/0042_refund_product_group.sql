DROP INDEX "refund_item_account_type_uq";--> statement-breakpoint
ALTER TABLE "refund_item" ADD COLUMN "product_group" varchar(32);--> statement-breakpoint
CREATE UNIQUE INDEX "refund_item_account_group_uq" ON "refund_item" USING btree ("license_account_id","product_group","item_type") WHERE "refund_item"."product_group" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "refund_item_account_type_uq" ON "refund_item" USING btree ("license_account_id","item_type") WHERE "refund_item"."barcode" is null and "refund_item"."product_group" is null;